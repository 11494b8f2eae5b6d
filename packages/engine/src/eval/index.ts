export * from './calibration.js';
export * from './collection-calibration.js';
export * from './cross.js';
export * from './metrics.js';
export * from './report.js';
export * from './run.js';
export * from './sets.js';

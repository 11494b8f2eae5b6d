export { ed25519Suite } from './ed25519-suite.js';
export { jcsSuite } from './jcs-suite.js';
export { openzeppelinSuite } from './openzeppelin-suite.js';
export { rfc6962Suite } from './rfc6962-suite.js';
export {
  type ConformanceReport,
  type NamedSuite,
  runConformance,
  SUITES,
  VectorsDirectoryError,
} from './run.js';
export { type Suite, SuiteRecorder, type SuiteResult } from './suite.js';

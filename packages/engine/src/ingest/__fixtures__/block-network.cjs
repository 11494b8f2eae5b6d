// Preloaded with --require by ocr.test.ts (a --require preload runs in every worker thread too, an
// --import one does not): any socket connection or fetch in the process throws.
const net = require('node:net');

const blocked = () => {
  throw new Error('NETWORK BLOCKED');
};
net.Socket.prototype.connect = blocked;
globalThis.fetch = blocked;

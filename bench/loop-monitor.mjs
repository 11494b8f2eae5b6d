// Preloaded into `saksi serve` by the hostile-corpus bench (`node --import`): writes each turn of the
// event loop that took longer than REPORT_MS to stderr, as `saksi-bench-stall <ms> <cpu ms> <epoch ms>`,
// so the bench can say how long ingestion held the server's thread at a time (docs/security.md). The
// CPU time the process used during the turn tells a thread held by the server's own work (CPU close
// to the turn's length) from a process the machine did not schedule (CPU well below it).
import { performance } from 'node:perf_hooks';

const TICK_MS = 5;
const REPORT_MS = 20;

let last = performance.now();
let lastCpu = process.cpuUsage();
setInterval(() => {
  const now = performance.now();
  const cpu = process.cpuUsage(lastCpu);
  const held = now - last - TICK_MS;
  last = now;
  lastCpu = process.cpuUsage();
  if (held > REPORT_MS) {
    const cpuMs = (cpu.user + cpu.system) / 1000;
    process.stderr.write(`saksi-bench-stall ${Math.round(held)} ${Math.round(cpuMs)} ${Date.now()}\n`);
  }
}, TICK_MS).unref();

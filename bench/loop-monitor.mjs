// Preloaded into `saksi serve` by the hostile-corpus and verify benches (`node --import`): writes each
// turn of the event loop that took longer than REPORT_MS to stderr, as
// `saksi-bench-stall <ms> <cpu ms> <epoch ms> <thread cpu ms>`, so a bench can say how long the
// server's thread was held at a time (docs/security.md). The CPU time the process used during the
// turn tells a thread held by the server's own work (CPU close to the turn's length) from a process
// the machine did not schedule (CPU well below it); the CPU time of the event loop's own thread
// (Linux, /proc/thread-self, in clock ticks of 10 ms) leaves out the verification threads, whose work
// is the process's too but never holds the loop.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const TICK_MS = 5;
const REPORT_MS = 20;
/** Milliseconds per clock tick of /proc's CPU times (USER_HZ is 100 on Linux). */
const MS_PER_CLOCK_TICK = 10;

/** User and system CPU time of this thread in ms, or -1 where /proc/thread-self is missing. */
function threadCpuMs() {
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    // Fields after the command name in parentheses: state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * MS_PER_CLOCK_TICK;
  } catch {
    return -1;
  }
}

let last = performance.now();
let lastCpu = process.cpuUsage();
let lastThreadCpu = threadCpuMs();
setInterval(() => {
  const now = performance.now();
  const cpu = process.cpuUsage(lastCpu);
  const threadCpu = threadCpuMs();
  const held = now - last - TICK_MS;
  last = now;
  lastCpu = process.cpuUsage();
  if (held > REPORT_MS) {
    const cpuMs = (cpu.user + cpu.system) / 1000;
    const threadMs = threadCpu < 0 || lastThreadCpu < 0 ? -1 : threadCpu - lastThreadCpu;
    process.stderr.write(
      `saksi-bench-stall ${Math.round(held)} ${Math.round(cpuMs)} ${Date.now()} ${threadMs}\n`,
    );
  }
  lastThreadCpu = threadCpu;
}, TICK_MS).unref();

#!/usr/bin/env node
// Launcher for the `saksi` command: runs the compiled CLI from ../dist, which `npm install`
// (root `prepare`) or `npm run build` produces with `tsc -b`.
import { existsSync } from 'node:fs';

const entry = new URL('../dist/main.js', import.meta.url);

// `saksi vectors | head` closes the pipe early; that is not an error worth a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

if (!existsSync(entry)) {
  process.stderr.write(
    'error: saksi is not built yet (packages/cli/dist/main.js is missing).\n' +
      'hint: run `npm install` (or `npm run build`) in the Saksi checkout, then try again.\n',
  );
  process.exitCode = 2;
} else {
  try {
    const { main } = await import(entry.href);
    process.exitCode = await main(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(
      `error: saksi could not start: ${error instanceof Error ? error.message : String(error)}\n` +
        'hint: run `npm run build` to rebuild it.\n',
    );
    process.exitCode = 2;
  }
}

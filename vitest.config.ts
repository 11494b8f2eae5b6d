import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'packages/*/test/**/*.test.ts',
      'contracts/src/**/*.test.ts',
      'contracts/scripts/**/*.test.ts',
    ],
    globalSetup: ['scripts/vitest-build.ts', 'packages/engine/test/pglite-template.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});

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
    globalSetup: ['scripts/vitest-build.ts', 'packages/test-support/src/pglite-template.ts'],
    // eventsource-parser (under the AI SDK) exports its TypeScript sources under our `source`
    // condition; inlining the SDK makes Vite resolve and transform them instead of handing `.ts`
    // files to Node.
    server: { deps: { inline: ['ai', /@ai-sdk\//, 'eventsource-parser'] } },
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});

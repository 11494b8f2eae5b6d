/**
 * The widget's verifier (src/widget/verifier.ts: @saksi/proof's verifyBundle and the key pinning) as
 * one self-contained IIFE file, dist/widget-verify.js, that widget.js loads from its own server only
 * when an answer arrives. It assigns its exports to `window.SaksiWidgetVerifier`. Runs after the app
 * build (`npm run build`), so it must not empty dist/.
 */
import { defaultClientConditions, defineConfig } from 'vite';

export default defineConfig({
  publicDir: false,
  // `source`: bundle @saksi/proof from its TypeScript source (packages/proof/package.json exports).
  resolve: { conditions: ['source', ...defaultClientConditions] },
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    sourcemap: false,
    target: 'es2020',
    minify: 'esbuild',
    lib: {
      entry: 'src/widget/verifier.ts',
      formats: ['iife'],
      name: 'SaksiWidgetVerifier',
      fileName: () => 'widget-verify.js',
    },
  },
});

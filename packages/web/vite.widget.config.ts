/**
 * The embeddable widget (src/widget/widget.ts) as one self-contained IIFE file, dist/widget.js; its
 * verifier is built apart (vite.widget-verify.config.ts) and loaded only when an answer arrives.
 * Runs after the app build (`npm run build`), so it must not empty dist/.
 */
import { defineConfig } from 'vite';

export default defineConfig({
  publicDir: false,
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    sourcemap: false,
    target: 'es2020',
    minify: 'esbuild',
    lib: {
      entry: 'src/widget/widget.ts',
      formats: ['iife'],
      name: 'SaksiWidget',
      fileName: () => 'widget.js',
    },
  },
});

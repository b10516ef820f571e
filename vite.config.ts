/**
 * Builds the Benchmarks page (src/web/app: Preact + Observable Plot) into
 * dist/web-app, which `goodput serve` serves. Everything is bundled: the page
 * loads no remote script, style or font.
 */
import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

export default defineConfig({
  root: 'src/web/app',
  base: './',
  plugins: [preact()],
  build: {
    outDir: '../../../dist/web-app',
    emptyOutDir: true,
    // Plot and d3 are most of the bundle; one chunk of ~100 KB gzip is fine on loopback.
    chunkSizeWarningLimit: 1024,
  },
});

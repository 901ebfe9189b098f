import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The console: a single-page app built into web/dist (served by the local runtime at `/` and by
 * CloudFront in the cloud). Everything is bundled; nothing is fetched from a CDN at run time.
 * `npm run dev:web` serves it with hot reload and forwards /v1 to a local runtime on :8080.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  build: {
    outDir: process.env.VIGIL_CONSOLE_OUT ?? 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1024,
  },
  server: { proxy: { '/v1': 'http://127.0.0.1:8080' } },
});

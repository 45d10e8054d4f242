import { defineConfig } from 'vitest/config';

// Relative asset paths: the server serves dist/ under /ui/ (and the vSphere Client loads the
// plugin's views from wherever plugin.json points). No plugin that downloads anything.
export default defineConfig({
  base: './',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 1500,
  },
  server: {
    // `npm run dev`: proxy the API to a server given by SDRS_URL (default localhost:8080)
    proxy: {
      '/api': process.env.SDRS_URL ?? 'http://localhost:8080',
      '/v3': process.env.SDRS_URL ?? 'http://localhost:8080',
    },
  },
  test: {
    environment: 'jsdom',
    include: ['test/**/*.test.ts'],
  },
});

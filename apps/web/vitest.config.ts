import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { catalogueParts } from './catalogue-parts-plugin.ts';
import { CATALOGUE_PARTS } from './src/i18n/catalogue-parts.ts';

export default defineConfig({
  plugins: [catalogueParts(CATALOGUE_PARTS), react()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  test: {
    name: 'web',
    root: fileURLToPath(new URL('.', import.meta.url)),
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/testing/setup-tests.ts'],
    // A dialog test types ~40 characters, each a full React render; on the shared 2-core machine under load a
    // test that takes 0.5 s alone was measured at 3.4 s, too close to the 5 s default.
    testTimeout: 20_000,
  },
});

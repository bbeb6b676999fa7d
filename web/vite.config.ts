import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/** The web client: built into web/dist, which the local server serves at `/` (and CloudFront in AWS). */
export default defineConfig({
  root,
  base: '/',
  plugins: [vue(), tailwindcss()],
  // vue-i18n's compile-time flags: the Composition API only, no devtools hooks in the bundle.
  define: {
    __VUE_I18N_FULL_INSTALL__: 'true',
    __VUE_I18N_LEGACY_API__: 'false',
    __INTLIFY_PROD_DEVTOOLS__: 'false',
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: false,
    // The timing report is noise for a one-off build of a few seconds.
    rolldownOptions: { checks: { pluginTimings: false } },
  },
  server: { proxy: { '/api': 'http://localhost:8787' } },
});

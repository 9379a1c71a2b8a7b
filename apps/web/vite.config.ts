import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import type { PluginOption, ProxyOptions } from 'vite';
import { bundleReport } from './bundle-report.ts';
import { catalogueParts } from './catalogue-parts-plugin.ts';
import { onlyChatLanguages } from './chat-languages-plugin.ts';
import { precompress } from './precompress-plugin.ts';
import { routePages } from './route-pages-plugin.ts';
import { sdkPartsOnDemand } from './sdk-on-demand-plugin.ts';
import { CATALOGUE_PARTS } from './src/i18n/catalogue-parts.ts';

/** The product server (apps/server), on the PORT it listens on. */
const productServer = `http://127.0.0.1:${process.env.PORT ?? 3000}`;

/**
 * The SPA has its own pages under /chat (/chat, /chat/:type/:id). A browser navigation (a GET that accepts HTML) is
 * the dev server's to answer with index.html, the same rule the product server applies (apps/server/src/web/web-app.ts);
 * every other /chat request belongs to the chat server.
 */
const spaPageUnderChat: NonNullable<ProxyOptions['bypass']> = (request) => {
  const isPage =
    (request.method === 'GET' || request.method === 'HEAD') &&
    (request.headers.accept ?? '').includes('text/html');
  return isPage ? '/index.html' : undefined;
};

// `npm run bench:web` sets this to get the chunk and module breakdown of the build (bench/web/bundle.ts).
const reportFile = process.env.WEB_BUNDLE_REPORT;
const plugins: PluginOption[] = [
  catalogueParts(CATALOGUE_PARTS),
  react(),
  tailwindcss(),
  onlyChatLanguages(),
  sdkPartsOnDemand(),
  // A page opened on the chat downloads the chat screen with the entry (apps/server/src/web/web-app.ts serves it).
  routePages([
    {
      page: 'chat.html',
      modules: [
        'src/features/chat/components/chat-screen.tsx',
        'src/features/chat/session/chat-client.ts',
        'src/features/chat/components/first-messages.tsx',
        'daohuu-catalogue-part:chat:',
      ],
      // The chat connects as soon as it knows the deployment's chat settings.
      fetches: ['/api/chat/config'],
      // The frame of the first messages the server writes into the page (apps/server/src/chat/first-messages.ts).
      stylesheets: ['src/features/chat/components/first-messages.tsx'],
    },
  ]),
  // Brotli and gzip copies of the build, sent by the product server to browsers that accept them.
  precompress(),
];
if (reportFile) plugins.push(bundleReport(reportFile));

export default defineConfig({
  plugins,
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  // `npm run dev` (scripts/dev.mjs) runs the product server beside this dev server; the app reaches it through
  // these proxies exactly as it does in production, on one origin. changeOrigin stays off so the product server sees
  // the Vite origin as the request's own host: it trusts it for writes and answers it as the chat base URL.
  server: {
    proxy: {
      '/api': { target: productServer, changeOrigin: false },
      // The embedded chat server: REST, uploads and the websocket (/chat/connect).
      '/chat': { target: productServer, changeOrigin: false, ws: true, bypass: spaPageUnderChat },
    },
  },
  build: {
    outDir: 'dist',
    // Every browser the build targets but the oldest few supports <link rel=modulepreload>; those few only lose the
    // preload, not the page, so the polyfill is not worth its bytes in every first load.
    modulePreload: { polyfill: false },
    assetsDir: 'assets',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // React and the router change far less often than the app: a separate chunk stays cached across deploys.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|react-router|scheduler|cookie|set-cookie-parser)[\\/]/,
            },
          ],
        },
      },
    },
  },
});

import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { firstPagesPlugin, inlineScriptsPlugin } from './first-pages-plugin';

/** Building blocks several pages use: components, helpers, icons, react-query's helpers. */
const SHARED_MODULE =
  /apps[\\/]web[\\/]src[\\/](components|lib)[\\/]|node_modules[\\/](lucide-react|@tanstack)[\\/]/;
const FORMS_MODULE = /[\\/]lib[\\/]forms\.ts$/;
// Lists and cards format money and measures (money, units, fx, preferences): no zod in those files.
const ZOD_FREE =
  /packages[\\/]domain[\\/]src[\\/](constants|notification-path|money|units|fx|preferences|document-types)\.ts$/;

/**
 * react-router's package exports only its development build (its dev warnings on) to a bundler; the
 * built app takes its production build instead (the dev server keeps the warnings).
 */
function reactRouterProduction(): Plugin {
  const dist = join(
    dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
    'dist/production',
  );
  return {
    name: 'evdra-react-router-production',
    apply: 'build',
    config: () => ({
      resolve: {
        alias: [
          { find: /^react-router$/, replacement: join(dist, 'index.mjs') },
          { find: /^react-router\/dom$/, replacement: join(dist, 'dom-export.mjs') },
        ],
      },
    }),
  };
}

const API_TARGET = process.env.EVDRA_API_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [
    react(),
    reactRouterProduction(),
    firstPagesPlugin(),
    inlineScriptsPlugin(),
    VitePWA({
      // A new version waits for the user's "Reload" (lib/offline/pwa.ts): never old and new files mixed.
      registerType: 'prompt',
      injectRegister: false,
      includeAssets: ['favicon.svg', 'apple-touch-icon.png', 'early-load.js', 'theme-init.js', 'robots.txt'],
      manifest: {
        name: 'Evdra',
        short_name: 'Evdra',
        description: 'Self-hosted vehicle management: fuel, expenses, insurance, revisions and analytics.',
        // Light colours here; index.html's theme-color metas switch to the dark ones in dark mode.
        theme_color: '#1f56c3',
        background_color: '#f4f6f9',
        display: 'standalone',
        start_url: '/vehicles',
        id: '/vehicles',
        lang: 'en',
        categories: ['productivity', 'utilities'],
        scope: '/',
        icons: [
          { src: '/pwa-192x192.png', sizes: '192x192', type: 'image/png' },
          { src: '/pwa-512x512.png', sizes: '512x512', type: 'image/png' },
          { src: '/maskable-512x512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
          { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml' },
        ],
      },
      workbox: {
        // App shell, every route chunk and the translations; never anything under /api.
        globPatterns: ['**/*.{js,css,html,svg,png,ico,webmanifest}', 'locales/**/*.json'],
        navigateFallback: '/index.html',
        // /r/ and /v/ are server pages (a shared report, a code's check), never the app shell.
        navigateFallbackDenylist: [/^\/api/, /^\/ai-feedback/, /^\/r\//, /^\/v(\/|$)/],
        cleanupOutdatedCaches: true,
        // Web Push: the push and notificationclick handlers (public/push-sw.js), loaded by the generated worker.
        // The offline wallet's papers (public/papers-sw.js): network first, then the kept copies.
        importScripts: ['/push-sw.js', '/papers-sw.js'],
        // No skipWaiting/clientsClaim: the waiting worker takes over only after "Reload".
        runtimeCaching: [
          {
            // Vehicle and receipt photos: immutable per URL (a new photo gets a new file id).
            urlPattern: ({ url, request }) =>
              request.method === 'GET' && /^\/api\/files\//.test(url.pathname),
            handler: 'CacheFirst',
            options: {
              cacheName: 'evdra-photos',
              expiration: { maxEntries: 200, maxAgeSeconds: 30 * 24 * 60 * 60, purgeOnQuotaError: true },
              cacheableResponse: { statuses: [200] },
            },
          },
          {
            // The lists the user has seen, for a reload without signal. Network first (the cache only
            // when the network fails), not stale-while-revalidate: after saving, the app refetches
            // and must get the new list, not the one from before the save.
            urlPattern: ({ url, request }) =>
              request.method === 'GET' &&
              /^\/api\/(vehicles|fuel-consumptions\/vehicle\/\d+|expenses\/vehicle\/\d+|revision\/vehicle\/\d+|insurance\/vehicle\/\d+)$/.test(
                url.pathname,
              ),
            handler: 'NetworkFirst',
            options: {
              // Weak signal at a petrol station: the saved list after 4 s rather than a spinner.
              networkTimeoutSeconds: 4,
              cacheName: 'evdra-api',
              expiration: { maxEntries: 100, maxAgeSeconds: 7 * 24 * 60 * 60 },
              cacheableResponse: { statuses: [200] },
            },
          },
        ],
      },
    }),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    rolldownOptions: {
      output: {
        // Fewer, larger chunks: on a phone's network every file costs a round trip, and over HTTP/1.1
        // only six go at once (a car's fuel screen needed some 30 small files after the app's script).
        codeSplitting: {
          groups: [
            // What the app's script itself loads stays as it was (one file beside index.js), so the
            // groups below never add to the first download of every page.
            { name: 'app', tags: ['$initial'], priority: 10 },
            // Every form's rules: zod and the shared schemas, one file.
            // Not the domain's zod-free files (constants, notification paths, money and units): a list page needs them
            // without the schemas.
            {
              name: 'domain',
              test: (id) =>
                /node_modules[\\/]zod[\\/]|packages[\\/]domain[\\/]/.test(id) && !ZOD_FREE.test(id),
              // Else the schemas' imports of those files would pull them in.
              includeDependenciesRecursively: false,
              priority: 3,
            },
            // Small building blocks several pages use (cards, fields, icons, formatting): one file
            // rather than a dozen of a few hundred bytes each.
            {
              name: 'shared',
              // Not the forms' helpers: they bring zod, which a page without a form never needs.
              test: (id) => SHARED_MODULE.test(id) && !FORMS_MODULE.test(id),
              minShareCount: 2,
              maxModuleSize: 8000,
              includeDependenciesRecursively: false,
              priority: 2,
            },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: false },
      '/ai-feedback': { target: API_TARGET, changeOrigin: false },
    },
  },
  preview: {
    port: 4173,
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: false },
      '/ai-feedback': { target: API_TARGET, changeOrigin: false },
    },
  },
});

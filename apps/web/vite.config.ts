import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const API_TARGET = process.env.EVDRA_API_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [
    react(),
    VitePWA({
      registerType: 'autoUpdate',
      injectRegister: false,
      includeAssets: ['favicon.svg', 'apple-touch-icon.png', 'theme-init.js', 'robots.txt'],
      manifest: {
        name: 'Evdra',
        short_name: 'Evdra',
        description: 'Self-hosted vehicle management: fuel, expenses, insurance, revisions and analytics.',
        theme_color: '#1f56c3',
        background_color: '#f4f6f9',
        display: 'standalone',
        start_url: '/',
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
        navigateFallbackDenylist: [/^\/api/, /^\/ai-feedback/],
        cleanupOutdatedCaches: true,
        clientsClaim: true,
        skipWaiting: true,
      },
    }),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
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

import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The server's render of the first pages (src/ssr.tsx): Node code, without the PWA nor public files.
 * Its libraries are bundled in, so React runs its production build whatever the server's NODE_ENV
 * (React's development build rendered a page ~3× slower).
 */
export default defineConfig({
  plugins: [react()],
  publicDir: false,
  ssr: { noExternal: true },
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  build: { ssr: 'src/ssr.tsx', outDir: 'dist-ssr', emptyOutDir: true, sourcemap: false },
});

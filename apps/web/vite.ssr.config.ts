import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The server's render of the first pages (src/ssr.tsx): Node code, without the PWA nor public files. */
export default defineConfig({
  plugins: [react()],
  publicDir: false,
  build: { ssr: 'src/ssr.tsx', outDir: 'dist-ssr', emptyOutDir: true, sourcemap: false },
});

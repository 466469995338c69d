import { useSyncExternalStore } from 'react';

/** Desktop widths, where a long record list reads better as a table than as cards. */
const WIDE = '(min-width: 1024px)';

/** The cookie that tells the server's render the width of the visitor's screen (server: first-screen.ts reads it). */
const WIDE_COOKIE = 'wide';

const media = () => (typeof window.matchMedia === 'function' ? window.matchMedia(WIDE) : undefined);

function subscribe(onChange: () => void) {
  const m = media();
  m?.addEventListener('change', onChange);
  return () => m?.removeEventListener('change', onChange);
}

/** Keeps the `wide` cookie in step with the window, for the server's render of the next visit. */
export function reportScreenWidth(): void {
  const write = () => {
    // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing in Firefox; a fixed value, nothing to escape.
    document.cookie = `${WIDE_COOKIE}=${media()?.matches ? 1 : 0}; path=/; max-age=31536000; samesite=lax`;
  };
  write();
  media()?.addEventListener('change', write);
}

/** On the server: what the cookie said, which ssr.tsx hands over as the stored `wideScreen`. */
function serverSnapshot(): boolean {
  try {
    return localStorage.getItem('wideScreen') === 'true';
  } catch {
    return false;
  }
}

/** Whether the window is at least 1024 px wide (false where matchMedia is missing). */
export function useWideScreen(): boolean {
  return useSyncExternalStore(subscribe, () => media()?.matches ?? false, serverSnapshot);
}

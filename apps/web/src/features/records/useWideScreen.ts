import { useSyncExternalStore } from 'react';

/** Desktop widths, where a long record list reads better as a table than as cards. */
const WIDE = '(min-width: 1024px)';

const media = () => (typeof window.matchMedia === 'function' ? window.matchMedia(WIDE) : undefined);

function subscribe(onChange: () => void) {
  const m = media();
  m?.addEventListener('change', onChange);
  return () => m?.removeEventListener('change', onChange);
}

/** Whether the window is at least 1024 px wide (false where matchMedia is missing). */
export function useWideScreen(): boolean {
  return useSyncExternalStore(subscribe, () => media()?.matches ?? false);
}

import { useSyncExternalStore } from 'react';

/**
 * The service worker's update state. main.tsx registers the worker (vite-plugin-pwa, prompt mode)
 * and reports here; the UI shows "A new version is available — Reload". The new worker waits
 * (no skipWaiting) until the user reloads, so a page never mixes old and new files.
 */
let needRefresh = false;
let update: (() => Promise<void>) | null = null;
const listeners = new Set<() => void>();

export function reportNeedRefresh(updateSW: () => Promise<void>): void {
  needRefresh = true;
  update = updateSW;
  for (const l of listeners) l();
}

export function dismissUpdate(): void {
  needRefresh = false;
  for (const l of listeners) l();
}

/** Activates the waiting worker and reloads the page on the new version. */
export async function applyUpdate(): Promise<void> {
  if (update) await update();
  else window.location.reload();
}

export function useNeedRefresh(): boolean {
  return useSyncExternalStore(
    (cb) => {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    () => needRefresh,
    () => false,
  );
}

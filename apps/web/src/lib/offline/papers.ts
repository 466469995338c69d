import type { VehicleDocument } from '@evdra/domain';
import { forgetPapersShell } from './papers-shell';

/**
 * The offline wallet (issue 52): the latest document of each type of every car the user reaches is
 * kept in the "evdra-papers" cache (its list and its pages), which the service worker answers from
 * when there is no network (public/papers-sw.js). A setting turns it off for a shared device; logout
 * and a change of user empty it.
 */
export const PAPERS_CACHE = 'evdra-papers';
const SETTING_KEY = 'evdra.papersOffline';

const cachesAvailable = () => typeof caches !== 'undefined';

/** On unless turned off on this device. */
export function papersOfflineOn(): boolean {
  try {
    return localStorage.getItem(SETTING_KEY) !== 'off';
  } catch {
    return true;
  }
}

/** Turning it off forgets every kept page at once. */
export async function setPapersOffline(on: boolean): Promise<void> {
  localStorage.setItem(SETTING_KEY, on ? 'on' : 'off');
  if (!on) await clearPapers();
}

export async function clearPapers(): Promise<void> {
  forgetPapersShell();
  if (cachesAvailable()) await caches.delete(PAPERS_CACHE).catch(() => false);
}

/** The latest document (by expiry, then newest) of each type: what a roadside check asks for. */
export function latestOfEachType(docs: VehicleDocument[]): VehicleDocument[] {
  const best = new Map<string, VehicleDocument>();
  for (const d of docs) {
    const cur = best.get(d.type);
    const later =
      !cur ||
      (d.expiresOn ?? '') > (cur.expiresOn ?? '') ||
      ((d.expiresOn ?? '') === (cur.expiresOn ?? '') && d.id > cur.id);
    if (later) best.set(d.type, d);
  }
  return [...best.values()];
}

/** Every URL a kept document needs offline: its car's list, each page and its preview. */
export function urlsToKeep(vehicleId: number, docs: VehicleDocument[]): string[] {
  const urls = [`/api/vehicles/${vehicleId}/documents`];
  for (const d of latestOfEachType(docs)) {
    for (const p of d.pages) urls.push(p.url);
    if (d.previewUrl) urls.push(d.previewUrl);
  }
  return urls;
}

/**
 * Keeps the given cars' papers on the device (when the setting is on): fetches what is not kept
 * yet, refreshes the lists, and forgets what is no longer the latest. Failures are left for the
 * next time (the wallet is a convenience, never an error on screen).
 */
export async function keepPapers(byVehicle: { vehicleId: number; docs: VehicleDocument[] }[]): Promise<void> {
  if (!cachesAvailable() || !papersOfflineOn()) return;
  if (typeof navigator !== 'undefined' && !navigator.onLine) return;
  const cache = await caches.open(PAPERS_CACHE);
  const wanted = new Set(byVehicle.flatMap((v) => urlsToKeep(v.vehicleId, v.docs)));
  const origin = window.location.origin;
  for (const req of await cache.keys()) {
    const u = new URL(req.url);
    if (!wanted.has(u.pathname + u.search)) await cache.delete(req);
  }
  for (const url of wanted) {
    const isList = url.endsWith('/documents');
    if (!isList && (await cache.match(`${origin}${url}`))) continue;
    try {
      const res = await fetch(url, { credentials: 'same-origin', headers: { Accept: '*/*' } });
      if (res.ok) await cache.put(`${origin}${url}`, res);
    } catch {
      /* the next visit tries again */
    }
  }
}

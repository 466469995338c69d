import { type EcbFeed, parseEcbFeed } from './ecb-feed.js';
import type { FxService } from './fx.service.js';

type Log = {
  info: (o: object, m: string) => void;
  warn: (o: object, m: string) => void;
};

/** The 90-day file is ~60 KB and the whole history since 1999 ~6 MB; anything past this is not a rate file. */
export const FEED_MAX_BYTES = 16 * 1024 * 1024;
export const FEED_TIMEOUT_MS = 30_000;

/**
 * Fetches the ECB reference-rate file at `url` and stores its rates. Throws on a failed request, an
 * answer other than 200, one larger than FEED_MAX_BYTES, or a file that is not the ECB's format.
 */
export async function importEcbRates(
  url: string,
  service: FxService,
  { timeoutMs = FEED_TIMEOUT_MS, maxBytes = FEED_MAX_BYTES } = {},
): Promise<{ days: number; rates: number; changed: number; skipped: number }> {
  const response = await fetch(url, {
    signal: AbortSignal.timeout(timeoutMs),
    headers: { accept: 'application/xml, text/xml' },
  });
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new Error(`the rate file answered HTTP ${response.status}`);
  }
  const feed: EcbFeed = parseEcbFeed(await readCapped(response, maxBytes));
  const changed = await service.storeEcbRates(feed.rates);
  const days = new Set(feed.rates.map((r) => r.date)).size;
  return { days, rates: feed.rates.length, changed, skipped: feed.skipped };
}

async function readCapped(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw new Error(`the rate file is larger than ${maxBytes} bytes`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (response.body) {
    for await (const chunk of response.body) {
      size += chunk.byteLength;
      if (size > maxBytes) throw new Error(`the rate file is larger than ${maxBytes} bytes`);
      chunks.push(chunk);
    }
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The ECB publishes around 16:00 CET; the daily fetch runs at 16:30 UTC, after it in every season. */
const DAILY_AT_UTC_MINUTES = 16 * 60 + 30;
const RETRY_MS = 60 * 60 * 1000;

/** When the next daily fetch is due after `now`: today's 16:30 UTC if still ahead, else tomorrow's. */
export function nextDailyFetch(now: Date): Date {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const at = today + DAILY_AT_UTC_MINUTES * 60_000;
  return new Date(at > now.getTime() ? at : at + 86_400_000);
}

/**
 * Fetches the rates `firstAfterMs` after the call, in the background (the server's start never waits
 * for it), then once a day; after a failure (no network, ECB down) it tries again within the hour.
 * Failures are logged, never thrown. Returns a stop function.
 */
export function scheduleEcbRates(
  url: string,
  service: FxService,
  log: Log,
  { firstAfterMs = 0, now = () => new Date() }: { firstAfterMs?: number; now?: () => Date } = {},
): () => void {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const run = async () => {
    let next: number;
    try {
      const result = await importEcbRates(url, service);
      log.info(result, 'ECB exchange rates fetched');
      next = nextDailyFetch(now()).getTime() - now().getTime();
    } catch (err) {
      log.warn({ err, url }, 'fetching the ECB exchange rates failed; trying again within the hour');
      next = Math.min(RETRY_MS, nextDailyFetch(now()).getTime() - now().getTime());
    }
    if (!stopped) timer = setTimeout(run, next).unref();
  };
  timer = setTimeout(run, firstAfterMs).unref();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

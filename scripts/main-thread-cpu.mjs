// The page's main-thread CPU on a cold load, from a Chromium trace: each task's thread time (`tdur`),
// which a busy machine inflates far less than Lighthouse's wall-clock figures. Used by
// bench-lighthouse.mjs to compare builds when the machine is not quiet.
// `blocking` mirrors TBT: the part of each task over 50 ms once scaled by Lighthouse's 4x CPU slowdown.
const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'loading'];

/** Loads `url` in `page` with the HTTP cache off; returns { total, longest, blocking } in ms. */
export async function mainThreadCpu(page, url) {
  const cdp = await page.createCDPSession();
  try {
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await page.goto('about:blank');
    await page.tracing.start({ categories: CATEGORIES });
    await page.goto(url, { waitUntil: 'networkidle0' });
    await new Promise((r) => setTimeout(r, 1000)); // the list's deferred rows, the photos
    const { traceEvents } = JSON.parse(Buffer.from(await page.tracing.stop()).toString('utf8'));
    // The renderer's main thread: where the page painted first.
    const main =
      traceEvents.find((e) => e.name === 'firstContentfulPaint') ??
      traceEvents.find((e) => e.name === 'navigationStart');
    const cpu = traceEvents
      .filter((e) => e.ph === 'X' && e.name === 'RunTask' && e.pid === main?.pid && e.tid === main?.tid)
      .map((t) => (t.tdur ?? t.dur) / 1000);
    return {
      total: cpu.reduce((s, d) => s + d, 0),
      longest: Math.max(0, ...cpu),
      blocking: cpu.reduce((s, d) => s + Math.max(0, 4 * d - 50), 0),
    };
  } finally {
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: false }).catch(() => undefined);
    await cdp.detach();
  }
}

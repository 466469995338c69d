/**
 * Runs `drain` now and every `intervalMs` (an outbox's sender: push, webhooks), each failure to
 * `onError`. The returned stop ends the timer and waits for the run still in flight (`inFlight`).
 */
export function pollEvery(
  drain: () => Promise<unknown>,
  intervalMs: number,
  onError: (err: unknown) => void,
  inFlight: () => Promise<unknown> | undefined,
): () => Promise<void> {
  const tick = () => {
    drain().catch(onError);
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  tick();
  return async () => {
    clearInterval(timer);
    await inFlight()?.catch(() => undefined);
  };
}

/**
 * Runs `step`, then waits `ratio` times as long as it took, so a background job working step by
 * step holds about 1 / (1 + ratio) of a core while requests are served beside it.
 */
export async function paced<T>(ratio: number, step: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await step();
  const rest = (performance.now() - started) * ratio;
  if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
  return result;
}

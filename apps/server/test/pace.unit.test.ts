import { expect, it } from 'vitest';
import { paced } from '../src/lib/pace.js';

// Steps of 100 ms: a rest would add another 100, wider than a busy machine's late timers.
const stepOf = (ms: number) => () => new Promise<string>((resolve) => setTimeout(() => resolve('done'), ms));

it('rests as long as the step took when the ratio is 1, and answers what the step answered', async () => {
  const started = performance.now();
  expect(await paced(1, stepOf(100))).toBe('done');
  // 100 ms of step and 100 of rest (timers may fire late, never early).
  expect(performance.now() - started).toBeGreaterThanOrEqual(198);
});

it('does not rest with a ratio of 0', async () => {
  const started = performance.now();
  await paced(0, stepOf(100));
  expect(performance.now() - started).toBeLessThan(190);
});

it('does not rest after a failed step: its error reaches the caller at once', async () => {
  const started = performance.now();
  await expect(paced(1, () => Promise.reject(new Error('statement failed')))).rejects.toThrow(
    'statement failed',
  );
  expect(performance.now() - started).toBeLessThan(90);
});

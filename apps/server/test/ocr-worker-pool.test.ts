import { describe, expect, it } from 'vitest';
import { OcrBusyError, type OcrText, WorkerPool } from '../src/ocr/worker-pool.js';

/**
 * The queue both engines share, with workers that are plain objects: each "reads" an image by
 * answering its text when the test says so, so the order of events is the test's to choose.
 */
type FakeWorker = { id: number; stopped: boolean };
class FakePool extends WorkerPool<FakeWorker> {
  spawned: FakeWorker[] = [];
  waiting: { worker: FakeWorker; image: string; answer: (fail?: boolean) => void }[] = [];
  cleaned = false;

  protected async spawn() {
    const w = { id: this.spawned.length + 1, stopped: false };
    this.spawned.push(w);
    return w;
  }
  protected read(worker: FakeWorker, image: Buffer): Promise<OcrText> {
    return new Promise((resolve, reject) => {
      const text = image.toString();
      this.waiting.push({
        worker,
        image: text,
        answer: (fail) =>
          fail ? reject(new Error('engine crashed')) : resolve({ text, confidence: 1, lines: [] }),
      });
    });
  }
  protected async stop(worker: FakeWorker) {
    worker.stopped = true;
  }
  protected override cleanUp() {
    this.cleaned = true;
  }
}

const img = (s: string) => Buffer.from(s);
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('the OCR worker pool', () => {
  it('reads receipts in the order they came, one per worker at a time, and starts workers only when needed', async () => {
    const pool = new FakePool({ size: 2, recycleAfter: 10, maxQueue: 5 });
    expect(pool.spawned).toHaveLength(0);
    const results = ['a', 'b', 'c'].map((s) => pool.recognize(img(s)));
    await tick();
    expect(pool.waiting.map((w) => w.image)).toEqual(['a', 'b']);
    expect(pool.pending).toBe(1);
    pool.waiting.shift()?.answer();
    await tick();
    expect(pool.waiting.map((w) => w.image)).toEqual(['b', 'c']);
    for (const w of pool.waiting.splice(0)) w.answer();
    expect((await Promise.all(results)).map((r) => r.text)).toEqual(['a', 'b', 'c']);
    expect(pool.spawned).toHaveLength(2);
  });

  it('refuses at once when the queue is full', async () => {
    const pool = new FakePool({ size: 1, recycleAfter: 10, maxQueue: 1 });
    void pool.recognize(img('reading'));
    await tick();
    void pool.recognize(img('waiting'));
    await expect(pool.recognize(img('one too many'))).rejects.toBeInstanceOf(OcrBusyError);
  });

  it('replaces a worker after a failure and after recycleAfter receipts', async () => {
    const pool = new FakePool({ size: 1, recycleAfter: 2, maxQueue: 5 });
    const failed = pool.recognize(img('x'));
    await tick();
    pool.waiting.shift()?.answer(true);
    await expect(failed).rejects.toThrow('engine crashed');
    expect(pool.spawned[0]?.stopped).toBe(true);

    for (const s of ['p', 'q', 'r']) {
      const read = pool.recognize(img(s));
      await tick();
      pool.waiting.shift()?.answer();
      await read;
    }
    // Worker 2 read p and q, then was replaced; worker 3 read r.
    expect(pool.spawned.map((w) => [w.id, w.stopped])).toEqual([
      [1, true],
      [2, true],
      [3, false],
    ]);
  });

  it('with recycleAfter Infinity (PaddleOCR), keeps one worker for every receipt and replaces it only after a failure', async () => {
    const pool = new FakePool({ size: 1, recycleAfter: Number.POSITIVE_INFINITY, maxQueue: 5 });
    const readAll = async (texts: string[], fail?: string) => {
      for (const s of texts) {
        const read = pool.recognize(img(s));
        await tick();
        pool.waiting.shift()?.answer(s === fail);
        await read.catch(() => undefined);
      }
    };
    await readAll(Array.from({ length: 250 }, (_, i) => `r${i}`));
    expect(pool.spawned.map((w) => [w.id, w.stopped])).toEqual([[1, false]]);
    await readAll(['ok', 'bad', 'next'], 'bad');
    expect(pool.spawned.map((w) => [w.id, w.stopped])).toEqual([
      [1, true],
      [2, false],
    ]);
  });

  it('on close, refuses what waits, stops every worker and cleans up', async () => {
    const pool = new FakePool({ size: 1, recycleAfter: 10, maxQueue: 5 });
    await pool.warmUp();
    void pool.recognize(img('reading'));
    await tick();
    const queued = pool.recognize(img('queued'));
    await pool.close();
    await expect(queued).rejects.toThrow('OCR pool closed');
    await expect(pool.recognize(img('late'))).rejects.toThrow('OCR pool closed');
    expect(pool.spawned[0]?.stopped).toBe(true);
    expect(pool.cleaned).toBe(true);
  });
});

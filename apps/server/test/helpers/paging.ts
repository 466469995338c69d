import { expect } from 'vitest';
import type { TestClient } from './client.js';

/**
 * Every page of `path` by `limit`, following X-Next-Cursor, each page's Link checked against it; the
 * items of all pages in order.
 */
export async function allPages<T>(
  c: TestClient,
  path: string,
  limit: number,
): Promise<{ items: T[]; pages: number }> {
  const items: T[] = [];
  const sep = path.includes('?') ? '&' : '?';
  const first = `${path}${sep}limit=${limit}`;
  let url = first;
  for (let pages = 1; pages <= 100; pages++) {
    const res = await c.get(url);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data.length).toBeLessThanOrEqual(limit);
    items.push(...res.data);
    const cursor = res.headers['x-next-cursor'] as string | undefined;
    if (!cursor) {
      expect(res.headers.link).toBeUndefined();
      return { items, pages };
    }
    expect(res.headers.link).toBe(`<${first}&cursor=${cursor}>; rel="next"`);
    url = `${first}&cursor=${cursor}`;
  }
  throw new Error('no last page');
}

import { NOTIFICATIONS_CAP } from '@evdra/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered, TestClient } from './helpers/client.js';
import { expectError, expectInvalid } from './helpers/expect.js';
import { allPages } from './helpers/paging.js';

// Issue 54: GET /api/notifications pages by keyset like the other lists (limit, cursor,
// X-Next-Cursor, Link rel=next, the bare array); the plain request answers as before, newest first,
// up to its cap of 200.

let t: TestApp;
let alice: TestClient; // seven notifications
let bob: TestClient; // one
let dave: TestClient; // none
let ids: { alice: number; bob: number; dave: number };

type Note = { id: number; title: string; timestamp: string; read: boolean };

/** `n` notifications of `user`, titled `<prefix> 1..n`, a minute apart (the last is the newest). */
async function notify(user: number, prefix: string, n: number, from = '2026-03-01 10:00:00+00') {
  await t.database.db.execute(sql`
    insert into notifications (user_id, type, title, content, created_at)
    select ${user}, 'REVISION_REMINDER', ${prefix} || ' ' || k, 'content ' || k,
           ${from}::timestamptz + k * interval '1 minute'
      from generate_series(1, ${n}) k`);
}

/** Every page by `limit`, following X-Next-Cursor, each page's Link checked against it. */
const titles = (list: { title: string }[]) => list.map((n) => n.title);

beforeAll(async () => {
  t = await createTestApp();
  await registered(t.app, 'npadmin'); // the first account is the admin
  const [a, b, d] = [
    await registered(t.app, 'npalice'),
    await registered(t.app, 'npbob'),
    await registered(t.app, 'npdave'),
  ];
  [alice, bob, dave] = [a.client, b.client, d.client];
  ids = { alice: a.user.id, bob: b.user.id, dave: d.user.id };
  await notify(ids.alice, 'alice', 7);
  await notify(ids.bob, 'bob', 1);
}, 120_000);
afterAll(() => t.close());

describe('GET /api/notifications pages', () => {
  it('the plain request answers them all, newest first, without paging headers', async () => {
    const res = await alice.get('/api/notifications');
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-next-cursor']).toBeUndefined();
    expect(res.headers.link).toBeUndefined();
    expect(titles(res.data)).toEqual([
      'alice 7',
      'alice 6',
      'alice 5',
      'alice 4',
      'alice 3',
      'alice 2',
      'alice 1',
    ]);
    expect(res.data[0]).toEqual({
      id: expect.any(Number),
      type: 'REVISION_REMINDER',
      title: 'alice 7',
      content: 'content 7',
      timestamp: '2026-03-01T10:07:00.000Z',
      read: false,
      vehicleId: null,
    });
  });

  it('pages join up to the plain list at every page size', async () => {
    const whole = (await alice.get('/api/notifications')).data;
    for (const limit of [1, 2, 3, 7, 200]) {
      const { items, pages } = await allPages<Note>(alice, '/api/notifications', limit);
      expect(items).toEqual(whole);
      expect(pages).toBe(Math.ceil(7 / limit)); // a page that ends the list has no next
    }
  });

  it('ties on the time, and times a microsecond apart, neither repeat nor skip a notification', async () => {
    await t.database.db.execute(
      sql`update notifications set created_at = timestamptz '2026-03-02 10:00:00.123456+00' where user_id = ${ids.alice}`,
    );
    await t.database.db.execute(sql`
      update notifications set created_at = timestamptz '2026-03-02 10:00:00.123457+00'
       where user_id = ${ids.alice} and title = 'alice 1'`);
    await t.database.db.execute(sql`
      update notifications set created_at = timestamptz '2026-03-02 10:00:00.123455+00'
       where user_id = ${ids.alice} and title = 'alice 7'`);
    const whole = (await alice.get('/api/notifications')).data as Note[];
    expect(whole).toHaveLength(7);
    expect(whole[0]?.title).toBe('alice 1');
    expect(whole.at(-1)?.title).toBe('alice 7');
    // The tied ones come by id, highest first.
    const tied = whole.slice(1, -1).map((n) => n.id);
    expect(tied).toEqual([...tied].sort((x, y) => y - x));
    for (const limit of [1, 2, 3, 5]) {
      const { items } = await allPages<Note>(alice, '/api/notifications', limit);
      expect(items.map((n) => n.id)).toEqual(whole.map((n) => n.id));
    }
  });

  it("another user's pages hold only their own; a cursor never reaches another user's", async () => {
    const page = await alice.get('/api/notifications?limit=2');
    const cursor = page.headers['x-next-cursor'] as string;
    expect(cursor).toMatch(/^\d+_\d+$/);
    for (const url of [
      `/api/notifications?limit=10&cursor=${cursor}`,
      `/api/notifications?cursor=${cursor}`,
    ]) {
      const res = await dave.get(url);
      expect(res.statusCode).toBe(200);
      expect(res.data).toEqual([]);
      expect(res.body).not.toContain('alice');
      expect(res.headers['x-next-cursor']).toBeUndefined();
    }
    // A cursor past every time (the year 5138) asks for all there is: still only Bob's one.
    const far = await bob.get('/api/notifications?limit=5&cursor=99999999999999999_2147483647');
    expect(titles(far.data)).toEqual(['bob 1']);
    // Marking another user's notification read is a 404 that changes nothing.
    const alices = page.data[0] as Note;
    expectError(await bob.patch(`/api/notifications/${alices.id}/clear`), 404, 'NOT_FOUND');
    expect(((await alice.get('/api/notifications?limit=1')).data[0] as Note).read).toBe(false);
  });

  it('refuses a limit or cursor it did not give with 400, naming the field', async () => {
    for (const limit of ['0', '201', 'x', '1.5', '-1'])
      expectInvalid(await alice.get(`/api/notifications?limit=${limit}`), 'limit');
    for (const cursor of ['abc', '12', '12_0', '-1_3', '1_99999999999', '123456789012345678_1'])
      expectInvalid(await alice.get(`/api/notifications?cursor=${cursor}`), 'cursor');
    expectError(await new TestClient(t.app).get('/api/notifications?limit=2'), 401, 'UNAUTHENTICATED');
  });

  it(`answers at most ${NOTIFICATIONS_CAP} notifications, and then says where the rest starts`, async () => {
    await notify(ids.dave, 'dave', NOTIFICATIONS_CAP + 1);
    const res = await dave.get('/api/notifications');
    expect(res.statusCode).toBe(200);
    expect(res.data).toHaveLength(NOTIFICATIONS_CAP);
    expect(res.data[0].title).toBe(`dave ${NOTIFICATIONS_CAP + 1}`);
    const cursor = res.headers['x-next-cursor'] as string;
    expect(cursor).toMatch(/^\d+_\d+$/);
    expect(res.headers.link).toBe(`</api/notifications?cursor=${cursor}>; rel="next"`);
    const rest = await dave.get(`/api/notifications?cursor=${cursor}`);
    expect(titles(rest.data)).toEqual(['dave 1']);
    expect(rest.headers['x-next-cursor']).toBeUndefined();
  });
});

import { readFileSync } from 'node:fs';
import { CHAT_LIST_CAP, CONVERSATIONS_CAP, DOCUMENTS_CAP } from '@evdra/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/rows.js';
import { createTestApp, type TestApp } from './helpers/app.js';
import { registered, TestClient } from './helpers/client.js';
import { expectError, expectInvalid } from './helpers/expect.js';
import { multipart } from './helpers/multipart.js';
import { allPages } from './helpers/paging.js';

// Issue 54: the lists that still came whole page by keyset as the market and the record lists do
// (limit, cursor, X-Next-Cursor, Link rel=next, the bare array): a user's conversations, a
// conversation's messages, a vehicle's documents and its renewals. The plain request answers as
// before, up to a documented cap.

const jpeg = readFileSync(new URL('./fixtures/car-gps.jpg', import.meta.url));

let t: TestApp;
let alice: TestClient; // sells three cars, buys one of Bob's
let bob: TestClient; // buys Alice's three, sells one
let carol: TestClient; // buys two of Alice's
let dave: TestClient; // no conversations, no cars
let aliceCars: number[];
let bobListing: number;

let plate = 0;
async function listed(c: TestClient) {
  const v = await c.post('/api/vehicles', {
    make: 'Dacia',
    model: 'Logan',
    year: 2018,
    fuelType: 'PETROL',
    engineSize: 1.0,
    odometer: 90_000,
    registrationNumber: `IB-${++plate}-PG`,
  });
  expect(v.statusCode).toBe(201);
  const l = await c.post('/api/marketplace/list', { vehicleId: v.data.id, price: 5000 });
  expect(l.statusCode).toBe(201);
  return { listing: l.data.id as number, vehicle: v.data.id as number };
}

const interest = async (c: TestClient, listing: number) => {
  const res = await c.post(`/api/marketplace/interest/${listing}`);
  expect(res.statusCode).toBe(200);
  return res.data.interestId as number;
};

const interestIds = (list: { interestId: number }[]) => list.map((c) => c.interestId);

beforeAll(async () => {
  t = await createTestApp();
  await registered(t.app, 'ibadmin'); // the first account is the admin
  alice = (await registered(t.app, 'ibalice')).client;
  bob = (await registered(t.app, 'ibbob')).client;
  carol = (await registered(t.app, 'ibcarol')).client;
  dave = (await registered(t.app, 'ibdave')).client;
  const a = [await listed(alice), await listed(alice), await listed(alice)];
  aliceCars = a.map((x) => x.vehicle);
  bobListing = (await listed(bob)).listing;
  for (const x of a) await interest(bob, x.listing);
  await interest(carol, a[0]?.listing as number);
  await interest(carol, a[1]?.listing as number);
  await interest(alice, bobListing);
}, 300_000); // cars listed through the API on a loaded machine
afterAll(() => t.close());

describe('GET /api/marketplace/conversations pages', () => {
  it('the plain request answers every conversation, latest activity first, without paging headers', async () => {
    const res = await alice.get('/api/marketplace/conversations');
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-next-cursor']).toBeUndefined();
    expect(res.headers.link).toBeUndefined();
    // Three of Bob's and two of Carol's as the seller, her own interest in Bob's car as the buyer.
    expect(res.data).toHaveLength(6);
    expect(res.data.map((c: { role: string }) => c.role).sort()).toEqual([
      'buyer',
      'seller',
      'seller',
      'seller',
      'seller',
      'seller',
    ]);
    const times = res.data.map((c: { updatedAt: string }) => c.updatedAt);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('pages join up to the plain list, buyer and seller sides merged, at every page size', async () => {
    const whole = (await alice.get('/api/marketplace/conversations')).data;
    for (const limit of [1, 2, 4, 6]) {
      const { items, pages } = await allPages<{ interestId: number }>(
        alice,
        '/api/marketplace/conversations',
        limit,
      );
      expect(items).toEqual(whole);
      expect(pages).toBe(Math.ceil(6 / limit)); // a page that ends the list has no next
    }
  });

  it('ties on the time, and times a microsecond apart, neither repeat nor skip a conversation', async () => {
    // Every conversation (all six are Alice's) at one instant, but two a microsecond apart (a cursor written with
    // milliseconds would lose them).
    await t.database.db.execute(
      sql`update interests set updated_at = timestamptz '2026-03-01 10:00:00.123456+00'`,
    );
    const [first, second] = rowsOf<{ id: number }>(
      await t.database.db.execute(sql`select id from interests order by id limit 2`),
    );
    await t.database.db.execute(
      sql`update interests set updated_at = timestamptz '2026-03-01 10:00:00.123457+00' where id = ${first?.id}`,
    );
    await t.database.db.execute(
      sql`update interests set updated_at = timestamptz '2026-03-01 10:00:00.123455+00' where id = ${second?.id}`,
    );
    const whole = (await alice.get('/api/marketplace/conversations')).data as { interestId: number }[];
    expect(whole).toHaveLength(6);
    expect(whole[0]?.interestId).toBe(first?.id);
    expect(whole.at(-1)?.interestId).toBe(second?.id);
    for (const limit of [1, 2, 3, 5]) {
      const { items } = await allPages<{ interestId: number }>(
        alice,
        '/api/marketplace/conversations',
        limit,
      );
      expect(interestIds(items)).toEqual(interestIds(whole));
      expect(new Set(interestIds(items)).size).toBe(6);
    }
    // The tied ones come by id, highest first.
    const tied = interestIds(whole).slice(1, -1);
    expect(tied).toEqual([...tied].sort((x, y) => y - x));
  });

  it('a hidden conversation stays out of every page', async () => {
    const whole = (await bob.get('/api/marketplace/conversations')).data as { interestId: number }[];
    const hidden = whole[1]?.interestId as number;
    expect((await bob.delete(`/api/marketplace/conversations/${hidden}`)).statusCode).toBe(204);
    const { items } = await allPages<{ interestId: number }>(bob, '/api/marketplace/conversations', 1);
    expect(interestIds(items)).toEqual(interestIds(whole).filter((id) => id !== hidden));
  });

  it("a cursor never reaches another user's conversations", async () => {
    const page = await alice.get('/api/marketplace/conversations?limit=1');
    const cursor = page.headers['x-next-cursor'] as string;
    expect(cursor).toMatch(/^\d+_\d+$/);
    const res = await dave.get(`/api/marketplace/conversations?limit=10&cursor=${cursor}`);
    expect(res.statusCode).toBe(200);
    expect(res.data).toEqual([]);
    // A cursor past every time (the year 5138) asks for all there is: still only Dave's (none).
    const far = await dave.get('/api/marketplace/conversations?cursor=99999999999999999_2147483647');
    expect(far.data).toEqual([]);
    // Carol's pages hold her two, not Alice's or Bob's others.
    const { items } = await allPages<{ role: string }>(carol, '/api/marketplace/conversations', 1);
    expect(items.map((c) => c.role)).toEqual(['buyer', 'buyer']);
  });

  it('refuses a limit or cursor it did not give with 400, naming the field', async () => {
    for (const limit of ['0', '201', 'x', '1.5'])
      expectInvalid(await alice.get(`/api/marketplace/conversations?limit=${limit}`), 'limit');
    for (const cursor of ['abc', '12', '12_0', '-1_3', '1_99999999999', '123456789012345678_1'])
      expectInvalid(await alice.get(`/api/marketplace/conversations?cursor=${cursor}`), 'cursor');
    expectError(
      await new TestClient(t.app).get('/api/marketplace/conversations?limit=2'),
      401,
      'UNAUTHENTICATED',
    );
  });

  it(`answers at most ${CONVERSATIONS_CAP} conversations, and then says where the rest starts`, async () => {
    // Written in bulk by SQL: CONVERSATIONS_CAP + 1 buyers of Bob's car.
    await t.database.db.execute(sql`
      with u as (
        insert into users (username, email, password_hash)
        select 'ibcap' || n, 'ibcap' || n || '@example.com', 'x' from generate_series(1, ${CONVERSATIONS_CAP + 1}) n
        returning id)
      insert into interests (listing_id, buyer_id, updated_at)
      select ${bobListing}, u.id, timestamptz '2020-01-01' + u.id * interval '1 second' from u`);
    const res = await bob.get('/api/marketplace/conversations');
    expect(res.statusCode).toBe(200);
    expect(res.data).toHaveLength(CONVERSATIONS_CAP);
    const cursor = res.headers['x-next-cursor'] as string;
    expect(cursor).toMatch(/^\d+_\d+$/);
    expect(res.headers.link).toBe(`</api/marketplace/conversations?cursor=${cursor}>; rel="next"`);
    const rest = await bob.get(`/api/marketplace/conversations?cursor=${cursor}`);
    expect(rest.statusCode).toBe(200);
    expect(rest.headers['x-next-cursor']).toBeUndefined();
    // Bob's two as a buyer (the third he hid), Alice's in his car and the bulk buyers: each once.
    const all = interestIds([...res.data, ...rest.data]);
    expect(all).toHaveLength(2 + 1 + CONVERSATIONS_CAP + 1);
    expect(new Set(all).size).toBe(all.length);
  }, 120_000);
});

describe('GET /api/marketplace/chat/{interestId} pages', () => {
  let chat: number;
  beforeAll(async () => {
    const mine = (await carol.get('/api/marketplace/conversations')).data as { interestId: number }[];
    chat = mine[0]?.interestId as number;
    for (const m of ['one', 'two', 'three', 'four', 'five'])
      expect((await carol.post(`/api/marketplace/chat/${chat}`, { message: m })).statusCode).toBe(200);
  });

  it('pages join up to the plain answer, oldest first; `after` still answers only newer ones', async () => {
    const whole = await alice.get(`/api/marketplace/chat/${chat}`);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['x-next-cursor']).toBeUndefined();
    expect(whole.data.map((m: { content: string }) => m.content)).toEqual([
      'one',
      'two',
      'three',
      'four',
      'five',
    ]);
    for (const limit of [1, 2, 5]) {
      const { items } = await allPages(alice, `/api/marketplace/chat/${chat}`, limit);
      expect(items).toEqual(whole.data);
    }
    const after = whole.data[2].id;
    const newer = await alice.get(`/api/marketplace/chat/${chat}?after=${after}&limit=1`);
    expect(newer.data.map((m: { content: string }) => m.content)).toEqual(['four']);
    expect(newer.headers['x-next-cursor']).toBe(String(newer.data[0].id));
  });

  it('backwards from the newest (last, before) pages join up to the plain answer, each page oldest first', async () => {
    const whole = (await alice.get(`/api/marketplace/chat/${chat}`)).data as {
      id: number;
      content: string;
    }[];
    const path = `/api/marketplace/chat/${chat}`;
    for (const last of [1, 2, 3, 5]) {
      const pages: { id: number }[][] = [];
      let url = `${path}?last=${last}`;
      for (let n = 1; n <= 10; n++) {
        const res = await alice.get(url);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.headers['x-next-cursor']).toBeUndefined();
        pages.unshift(res.data);
        const before = res.headers['x-prev-cursor'] as string | undefined;
        if (!before) {
          expect(res.headers.link).toBeUndefined();
          break;
        }
        expect(before).toBe(String(res.data[0].id)); // the page's first (oldest) message
        const expected = `${path}?last=${last}&before=${before}`;
        expect(res.headers.link).toBe(`<${expected}>; rel="prev"`);
        url = expected;
      }
      expect(pages.flat()).toEqual(whole);
      expect(pages).toHaveLength(Math.ceil(5 / last));
      expect(pages.at(-1)?.map((m) => m.id)).toEqual(whole.slice(-last).map((m) => m.id));
    }
    // `before` alone: every message before it.
    const early = await alice.get(`${path}?before=${whole[2]?.id}`);
    expect(early.data.map((m: { content: string }) => m.content)).toEqual(['one', 'two']);
    expect(early.headers['x-prev-cursor']).toBeUndefined();
  });

  it('reading a page marks as read only what it showed', async () => {
    // Carol wrote five; Alice's unread count was reset by the reads above: write two more.
    await carol.post(`/api/marketplace/chat/${chat}`, { message: 'six' });
    await carol.post(`/api/marketplace/chat/${chat}`, { message: 'seven' });
    const unread = async () =>
      (
        (await alice.get('/api/marketplace/conversations')).data as { interestId: number; unread: number }[]
      ).find((c) => c.interestId === chat)?.unread;
    expect(await unread()).toBe(2);
    const whole = (await carol.get(`/api/marketplace/chat/${chat}`)).data as { id: number }[];
    await alice.get(`/api/marketplace/chat/${chat}?limit=1&cursor=${whole[4]?.id}`);
    expect(await unread()).toBe(1);
  });

  it('a message sent with `after` answers only what follows it, the sent one included', async () => {
    const whole = (await carol.get(`/api/marketplace/chat/${chat}`)).data as { id: number }[];
    const lastId = whole.at(-1)?.id;
    const sent = await carol.post(`/api/marketplace/chat/${chat}?after=${lastId}`, {
      message: 'hello again',
    });
    expect(sent.statusCode).toBe(200);
    expect(sent.data).toEqual([
      {
        id: expect.any(Number),
        sender: expect.stringMatching(/^ibcarol/),
        content: 'hello again',
        mine: true,
        timestamp: expect.any(String),
      },
    ]);
    // Without a query the answer is the whole conversation, as before.
    const plain = await carol.post(`/api/marketplace/chat/${chat}`, { message: 'and again' });
    expect(plain.data.map((m: { content: string }) => m.content).slice(-2)).toEqual([
      'hello again',
      'and again',
    ]);
    expect(plain.data).toHaveLength(whole.length + 2);
  });

  it('another user gets 404 with no messages, whatever the cursor; bad values are 400', async () => {
    for (const url of [
      `/api/marketplace/chat/${chat}?limit=2`,
      `/api/marketplace/chat/${chat}?cursor=1&limit=5`,
    ]) {
      const res = await dave.get(url);
      expectError(res, 404, 'NOT_FOUND');
      expect(res.body).not.toContain('three');
    }
    for (const limit of ['0', '501', 'x'])
      expectInvalid(await alice.get(`/api/marketplace/chat/${chat}?limit=${limit}`), 'limit');
    for (const cursor of ['abc', '0', '-4', '99999999999'])
      expectInvalid(await alice.get(`/api/marketplace/chat/${chat}?cursor=${cursor}`), 'cursor');
    for (const url of [`?last=2`, `?before=999999`, `?last=1&before=1`]) {
      const res = await dave.get(`/api/marketplace/chat/${chat}${url}`);
      expectError(res, 404, 'NOT_FOUND');
      expect(res.body).not.toContain('three');
    }
    expectError(await dave.post(`/api/marketplace/chat/${chat}?after=0`, { message: 'x' }), 404, 'NOT_FOUND');
    for (const last of ['0', '501', 'x'])
      expectInvalid(await alice.get(`/api/marketplace/chat/${chat}?last=${last}`), 'last');
    for (const before of ['abc', '0', '-4', '99999999999'])
      expectInvalid(await alice.get(`/api/marketplace/chat/${chat}?before=${before}`), 'before');
    // The two ways do not mix.
    for (const mix of ['last=2&limit=2', 'before=5&after=1', 'last=1&cursor=3'])
      expectInvalid(await alice.get(`/api/marketplace/chat/${chat}?${mix}`), 'last');
  });

  it(`answers at most ${CHAT_LIST_CAP} messages, and then says where the rest starts`, async () => {
    const bobsChat = (
      (await bob.get('/api/marketplace/conversations?limit=1')).data as { interestId: number }[]
    )[0]?.interestId as number;
    await t.database.db.execute(sql`
      insert into market_messages (interest_id, sender_id, content)
      select ${bobsChat}, null, 'bulk ' || n from generate_series(1, ${CHAT_LIST_CAP + 1}) n`);
    const res = await bob.get(`/api/marketplace/chat/${bobsChat}`);
    expect(res.data).toHaveLength(CHAT_LIST_CAP);
    const last = res.data.at(-1).id;
    expect(res.headers['x-next-cursor']).toBe(String(last));
    expect(res.headers.link).toBe(`</api/marketplace/chat/${bobsChat}?cursor=${last}>; rel="next"`);
    const rest = await bob.get(`/api/marketplace/chat/${bobsChat}?cursor=${last}`);
    expect(rest.data.map((m: { content: string }) => m.content)).toEqual([`bulk ${CHAT_LIST_CAP + 1}`]);
    expect(rest.headers['x-next-cursor']).toBeUndefined();
  }, 120_000);
});

describe('GET /api/vehicles/{id}/documents pages', () => {
  const upload = (c: TestClient, vehicle: number, title: string) => {
    const { payload, headers } = multipart([
      { name: 'data', value: JSON.stringify({ type: 'INVOICE', title }) },
      { name: 'files', file: { filename: `${title}.jpg`, type: 'image/jpeg', bytes: jpeg } },
    ]);
    return c.request('POST', `/api/vehicles/${vehicle}/documents`, payload, { headers });
  };
  let car: number;
  beforeAll(async () => {
    car = aliceCars[0] as number;
    for (const title of ['Tyres', 'Brakes', 'Battery', 'Wipers']) {
      const res = await upload(alice, car, title);
      expect(res.statusCode, res.body).toBe(201);
    }
  }, 120_000);

  it('the plain request answers them all newest first; pages join up to it', async () => {
    const whole = await alice.get(`/api/vehicles/${car}/documents`);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['x-next-cursor']).toBeUndefined();
    expect(whole.data.map((d: { title: string }) => d.title)).toEqual([
      'Wipers',
      'Battery',
      'Brakes',
      'Tyres',
    ]);
    expect(whole.data[0].pages).toHaveLength(1);
    for (const limit of [1, 3, 4]) {
      const { items } = await allPages(alice, `/api/vehicles/${car}/documents`, limit);
      expect(items).toEqual(whole.data);
    }
  });

  it("another user gets 404 with no document, whatever the cursor; a cursor never reaches another car's", async () => {
    const first = await alice.get(`/api/vehicles/${car}/documents?limit=1`);
    const cursor = first.headers['x-next-cursor'] as string;
    for (const url of [
      `/api/vehicles/${car}/documents?limit=1`,
      `/api/vehicles/${car}/documents?cursor=${cursor}`,
    ]) {
      const res = await dave.get(url);
      expectError(res, 404, 'NOT_FOUND');
      expect(res.body).not.toContain('Battery');
    }
    // Alice's second car has none: her first car's cursor finds none there either.
    const other = await alice.get(`/api/vehicles/${aliceCars[1]}/documents?limit=5&cursor=${cursor}`);
    expect(other.data).toEqual([]);
  });

  it('refuses a limit or cursor it did not give with 400, naming the field', async () => {
    for (const limit of ['0', '201', 'x'])
      expectInvalid(await alice.get(`/api/vehicles/${car}/documents?limit=${limit}`), 'limit');
    for (const cursor of ['abc', '0', '99999999999', '-1'])
      expectInvalid(await alice.get(`/api/vehicles/${car}/documents?cursor=${cursor}`), 'cursor');
  });

  it(`answers at most ${DOCUMENTS_CAP} documents, and then says where the rest starts`, async () => {
    const big = aliceCars[2] as number;
    await t.database.db.execute(sql`
      insert into vehicle_documents (vehicle_id, type, title)
      select ${big}, 'OTHER', 'Paper ' || n from generate_series(1, ${DOCUMENTS_CAP + 1}) n`);
    const res = await alice.get(`/api/vehicles/${big}/documents`);
    expect(res.data).toHaveLength(DOCUMENTS_CAP);
    const last = res.data.at(-1).id;
    expect(res.headers['x-next-cursor']).toBe(String(last));
    expect(res.headers.link).toBe(`</api/vehicles/${big}/documents?cursor=${last}>; rel="next"`);
    const rest = await alice.get(`/api/vehicles/${big}/documents?cursor=${last}`);
    expect(rest.data.map((d: { title: string }) => d.title)).toEqual(['Paper 1']);
    expect(rest.headers['x-next-cursor']).toBeUndefined();
  }, 120_000);
});

describe('GET /api/vehicles/{id}/renewals pages', () => {
  let car: number;
  beforeAll(async () => {
    car = aliceCars[1] as number;
    // Two on the same day: the tie is broken by id.
    for (const validUntil of ['2027-01-01', '2027-06-01', '2027-06-01', '2028-01-01', '2026-12-01']) {
      const res = await alice.post(`/api/vehicles/${car}/renewals`, { type: 'ROAD_TAX', validUntil });
      expect(res.statusCode, res.body).toBe(201);
    }
  });

  it('the plain request is unchanged; pages join up to it, ties on the day included', async () => {
    const whole = await alice.get(`/api/vehicles/${car}/renewals`);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['x-next-cursor']).toBeUndefined();
    const days = whole.data.map((r: { validUntil: string }) => r.validUntil);
    expect(days).toEqual(['2028-01-01', '2027-06-01', '2027-06-01', '2027-01-01', '2026-12-01']);
    for (const limit of [1, 2, 3]) {
      const { items } = await allPages(alice, `/api/vehicles/${car}/renewals`, limit);
      expect(items).toEqual(whole.data);
    }
  });

  it('another user gets 404 with no renewal; bad values are 400 naming the field', async () => {
    const res = await dave.get(`/api/vehicles/${car}/renewals?limit=1&cursor=2099-01-01_1`);
    expectError(res, 404, 'NOT_FOUND');
    expect(res.body).not.toContain('2027');
    for (const limit of ['0', '501', 'x'])
      expectInvalid(await alice.get(`/api/vehicles/${car}/renewals?limit=${limit}`), 'limit');
    for (const cursor of ['abc', '2027-13-01_1', '2027-01-01'])
      expectInvalid(await alice.get(`/api/vehicles/${car}/renewals?cursor=${cursor}`), 'cursor');
  });
});

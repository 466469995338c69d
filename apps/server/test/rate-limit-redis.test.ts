import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.js';
import { TestClient } from './helpers/client.js';
import { randomIp, redisAvailable, testRedisUrl } from './helpers/redis.js';

// Rate limits with REDIS_URL: shared by every replica; local when Redis is unreachable.
// Redis is independent of the database kind, so this runs in the PGlite project only.
const runs = process.env.EVDRA_TEST_DB !== 'postgres' && (await redisAvailable());
const LIMIT = '5';

describe.runIf(runs)('auth rate limit with REDIS_URL', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    const env = { REDIS_URL: testRedisUrl, AUTH_RATE_LIMIT_PER_MINUTE: LIMIT };
    a = await createTestApp(env);
    b = await createTestApp(env);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  it('is one budget across two servers: the 6th request from an address is refused wherever it lands', async () => {
    const ip = randomIp();
    const onA = new TestClient(a.app, ip);
    const onB = new TestClient(b.app, ip);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await (i % 2 ? onB : onA).post('/api/auth/refresh')).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    expect((await onA.post('/api/auth/refresh')).statusCode).toBe(429);
    // Another address has its own budget.
    expect((await new TestClient(b.app, randomIp()).post('/api/auth/refresh')).statusCode).toBe(401);
  });
});

describe.runIf(process.env.EVDRA_TEST_DB !== 'postgres')('auth rate limit with an unreachable Redis', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ REDIS_URL: 'redis://127.0.0.1:1', AUTH_RATE_LIMIT_PER_MINUTE: LIMIT });
  });
  afterAll(() => t?.close());

  it('keeps serving and still limits, per process', async () => {
    const client = new TestClient(t.app, randomIp());
    const started = Date.now();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await client.post('/api/auth/refresh')).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    expect(Date.now() - started).toBeLessThan(3000);
    expect((await client.get('/api/health')).statusCode).toBe(200);
  });
});

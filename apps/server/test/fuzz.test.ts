import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifications, webhookDeliveries, webhooks } from '../src/db/schema.js';
import { editorMay } from './fuzz/editor-writes.js';
import { formatReport, fuzz, type Transport } from './fuzz/fuzzer.js';
import { createTestApp, type TestApp } from './helpers/app.js';

// CI's pass of `npm run fuzz`: 1,000 schema-aware bad requests from the OpenAPI document, through
// the real app (in-process), plus the BOLA matrix. Runs in the PGlite project only, to stay short.
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 1000);
const runs = process.env.EVDRA_TEST_DB !== 'postgres' || process.env.FUZZ_ON_POSTGRES === '1';

// The marketplace operations the matrix could not reach before the fuzzer opened a conversation.
const MARKET_OWNER_IDS = [
  'PATCH /api/marketplace/edit/{id}',
  'PATCH /api/marketplace/edit-with-photos/{id}',
  'DELETE /api/marketplace/delete-permanent/{id}',
  'GET /api/marketplace/chat/{interestId}',
  'POST /api/marketplace/chat/{interestId}',
  'DELETE /api/marketplace/conversations/{interestId}',
  'PATCH /api/marketplace/transfer/{interestId}',
];

let t: TestApp;
beforeAll(async () => {
  if (runs) t = await createTestApp({ LOGIN_FAILURES_PER_15_MIN: '1000000' });
});
afterAll(() => t?.close());

describe.runIf(runs)('fuzzer', () => {
  it(`answers ${REQUESTS} bad requests without a 5xx or a hang, and every id-taking operation refuses a second user`, async () => {
    const transport: Transport = async (req) => {
      const res = await t.app.inject({
        method: req.method as 'GET',
        url: req.url,
        headers: req.headers,
        payload: req.body,
      });
      return { status: res.statusCode, body: res.body, headers: res.headers };
    };
    const report = await fuzz({
      transport,
      requests: REQUESTS,
      seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined,
      timeoutMs: 10_000,
      // An editor of a shared vehicle writes its records (and scans receipts for them); the matrix
      // checks every other write refuses the editor, and every write refuses the viewer.
      editorMay,
      // Notifications come from the reminder job; give the owner one so its id operations are tried.
      prepare: async ({ owner }) => {
        await t.database.db.insert(notifications).values({
          userId: owner,
          type: 'INSURANCE_REMINDER',
          title: 'Insurance ends soon',
          content: 'Renew it.',
        });
        // And a webhook with a delivery, so a delivery's resend is tried with the owner's ids (issue 53).
        const [hook] = await t.database.db
          .insert(webhooks)
          .values({
            userId: owner,
            url: 'https://hooks.example.invalid/x',
            events: ['record.created'],
            secret: 's',
          })
          .returning();
        if (hook) {
          await t.database.db.insert(webhookDeliveries).values({
            webhookId: hook.id,
            eventId: '00000000-0000-4000-8000-000000000001',
            event: 'record.created',
            body: '{}',
            status: 'delivered',
          });
        }
      },
    });
    const text = formatReport(report);
    if (report.failures.length || report.bola.some((b) => !b.ok) || process.env.FUZZ_VERBOSE)
      process.stdout.write(`${text}\n`);
    expect(report.requests).toBe(REQUESTS);
    expect(report.failures, text).toEqual([]);
    expect(report.bola.length).toBeGreaterThan(15);
    // Every id-taking operation is tried with an id of the owner's: a skipped one (no id found, no
    // reason given) fails here as a refusal that did not happen would.
    expect(
      report.bola.filter((b) => !b.ok),
      text,
    ).toEqual([]);
    expect(
      report.bola.filter((b) => b.skipped),
      text,
    ).toEqual([]);
    for (const op of MARKET_OWNER_IDS)
      expect(report.bola.find((b) => b.operation === op)?.ok, `${op}\n${text}`).toBe(true);
    // The editor and the viewer of the owner's shared vehicles were tried too (issue 22).
    for (const op of [
      'PUT /api/vehicles/{id}',
      'DELETE /api/vehicles/{id}',
      'POST /api/vehicles/{id}/shares',
    ])
      for (const who of ['editor', 'viewer'])
        expect(
          report.bola.find((b) => b.operation === `${op} (as ${who})`)?.ok,
          `${op} as ${who}\n${text}`,
        ).toBe(true);
    expect(report.bola.find((b) => b.operation === 'POST /api/expenses (as viewer)')?.ok, text).toBe(true);
  }, 120_000);
});

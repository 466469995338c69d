import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BuiltinProvider } from '../src/ai/builtin.js';
import { LlmProvider } from '../src/ai/llm.js';
import { createTestApp, type TestApp } from './helpers/app.js';
import { newAccount, TestClient } from './helpers/client.js';

/** A fake OpenAI-compatible server on loopback: records requests, answers as `mode` says. */
type Mode = 'ok' | 'fail' | 'slow' | 'empty';
let mode: Mode = 'ok';
const requests: { url: string; body: { model: string; messages: { role: string; content: string }[] } }[] =
  [];
let server: Server;
let baseUrl: string;

function completion(content: string) {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 0,
    model: 'fake-model',
    choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }],
  };
}

let t: TestApp;
let client: TestClient;
let carId: number;

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => {
      raw += c;
    });
    req.on('end', () => {
      requests.push({ url: req.url ?? '', body: JSON.parse(raw) });
      if (mode === 'fail') {
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"boom"}}');
      } else if (mode === 'slow') {
        setTimeout(() => {
          if (!res.destroyed)
            res
              .writeHead(200, { 'content-type': 'application/json' })
              .end(JSON.stringify(completion('too late')));
        }, 3000).unref();
      } else {
        const content = mode === 'empty' ? '' : 'LLM says: **hello** from the fake model.';
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(completion(content)));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  t = await createTestApp({
    AI_BASE_URL: baseUrl,
    AI_MODEL: 'fake-model',
    AI_API_KEY: 'sk-test',
    AI_TIMEOUT_MS: '300',
  });
  client = new TestClient(t.app);
  await client.post('/api/auth/register', { ...newAccount('llm'), language: 'ro' });
  carId = (
    await client.post('/api/vehicles', {
      make: 'Skoda',
      model: 'Octavia',
      year: 2017,
      fuelType: 'DIESEL',
      registrationNumber: 'LLM-1',
      engineSize: 2,
      odometer: 120_000,
      aiEvaluationConsent: true,
    })
  ).data.id;
  const exp = await client.post('/api/expenses', {
    vehicleId: carId,
    date: '2026-01-10',
    expenseType: 'Repair',
    amount: 987.65,
  });
  if (exp.statusCode !== 201) throw new Error(exp.body);
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  mode = 'ok';
  requests.length = 0;
});

describe('OpenAI-compatible provider', () => {
  it('reports itself in /api/ai/status', async () => {
    expect((await client.get('/api/ai/status')).data).toEqual({
      provider: 'llm',
      model: 'fake-model',
      languages: ['en', 'ro', 'es'],
    });
  });

  it('sends the computed facts and the language, and passes the answer through', async () => {
    const res = await client.post('/api/chat', { prompt: 'Cât m-a costat mașina?' });
    expect(res.data.response).toBe('LLM says: **hello** from the fake model.');
    expect(requests).toHaveLength(1);
    const { url, body } = requests[0] ?? { url: '', body: { model: '', messages: [] } };
    expect(url).toBe('/v1/chat/completions');
    expect(body.model).toBe('fake-model');
    const system = body.messages[0]?.content ?? '';
    expect(system).toContain('Answer in Romanian (language code "ro") only.');
    expect(system).toContain('Use only numbers that appear in FACTS');
    const last = body.messages.at(-1)?.content ?? '';
    expect(last).toContain('QUESTION: Cât m-a costat mașina?');
    expect(last).toContain('"make":"Skoda"');
    expect(last).toContain('"expenses":987.65');
    // The model is told what currency the amounts are in and the units the reader reads.
    expect(last).toContain('"currency":"RON"');
    expect(last).toContain('"consumptionUnit":"L_100KM"');
    // The history and the answer as the user saw it are kept.
    expect((await client.get('/api/chat/history')).data.at(-1)).toEqual({
      role: 'ai',
      content: 'LLM says: **hello** from the fake model.',
    });
  });

  it('writes summaries and the evaluation reason, keeping the rubric score', async () => {
    const perf = await client.get(`/ai-feedback/vehicle/${carId}/performance`);
    expect(perf.body).toBe('LLM says: **hello** from the fake model.');
    const evaluated = await client.post(`/api/vehicles/${carId}/evaluate-ai`);
    expect(evaluated.data.aiScoreReason).toBe('LLM says: **hello** from the fake model.');
    expect(Number.isInteger(evaluated.data.aiScore)).toBe(true);
    expect(requests.at(-1)?.body.messages.at(-1)?.content).toContain(`${evaluated.data.aiScore}/10`);
  });

  it("keeps the model's reason as it wrote it for every reader; the built-in fallback is written for each (issue 50)", async () => {
    const viewer = new TestClient(t.app);
    const account = newAccount('llmviewer');
    expect((await viewer.post('/api/auth/register', { ...account, language: 'en' })).statusCode).toBe(201);
    const share = await client.post(`/api/vehicles/${carId}/shares`, {
      username: account.username,
      role: 'VIEWER',
    });
    expect(share.statusCode).toBe(201);

    // The model's words cannot be written again in English: the viewer reads them as written.
    const byModel = await client.post(`/api/vehicles/${carId}/evaluate-ai`);
    expect(byModel.data.aiScoreReason).toBe('LLM says: **hello** from the fake model.');
    expect((await viewer.get(`/api/vehicles/${carId}`)).data.aiScoreReason).toBe(
      'LLM says: **hello** from the fake model.',
    );
    const inList = (await viewer.get('/api/vehicles')).data.find((v: { id: number }) => v.id === carId);
    expect(inList.aiScoreReason).toBe('LLM says: **hello** from the fake model.');

    // The model down: the built-in reason, in Romanian for the owner and in English for the viewer.
    mode = 'fail';
    const builtin = await client.post(`/api/vehicles/${carId}/evaluate-ai`);
    expect(builtin.data.aiScoreReason).toMatch(/^Mașină mai veche: \d+ ani\. Nicio revizie înregistrată\./);
    const read = await viewer.get(`/api/vehicles/${carId}`);
    expect(read.data.aiScore).toBe(builtin.data.aiScore);
    expect(read.data.aiScoreReason).toMatch(
      /^Older car: \d+ years old\. No service on record\. Only 1 record\(s\)/,
    );

    // The model back: its new reason replaces the built-in one for every reader (no basis outlives it).
    mode = 'ok';
    await client.post(`/api/vehicles/${carId}/evaluate-ai`);
    expect((await viewer.get(`/api/vehicles/${carId}`)).data.aiScoreReason).toBe(
      'LLM says: **hello** from the fake model.',
    );
  });

  it.each(['fail', 'slow', 'empty'] as const)(
    'falls back to the built-in answer when the server is %s',
    async (m) => {
      mode = m;
      const started = Date.now();
      const res = await client.post('/api/chat', { prompt: 'Cât m-a costat mașina?' });
      expect(res.statusCode).toBe(200);
      // A Romanian account pays in lei (issue 50): the built-in answer names lei, not euros.
      expect(res.data.response).toMatch(/\*\*Skoda Octavia\*\*: 987,65\slei în total/);
      expect(Date.now() - started).toBeLessThan(2500);
      const fuel = await client.get(`/ai-feedback/vehicle/${carId}/fuel`);
      expect(fuel.statusCode).toBe(200);
      expect(fuel.body).toContain('Nu există încă alimentări pentru Skoda Octavia.');
    },
  );

  it('logs a warning when it falls back', async () => {
    const warnings: string[] = [];
    const provider = new LlmProvider(
      { baseUrl, apiKey: 'x', model: 'fake-model', timeoutMs: 300 },
      new BuiltinProvider(),
      { warn: (_o, msg) => warnings.push(msg) },
    );
    mode = 'fail';
    const answer = await provider.chat({
      prompt: 'hello',
      language: 'en',
      history: [],
      context: undefined,
      facts: { language: 'en', today: '2026-01-01', vehicles: [] },
    });
    expect(answer.text).toContain("Hello! I'm your virtual mechanic.");
    expect(warnings).toEqual(['AI server failed; the built-in provider answered']);
  });
});

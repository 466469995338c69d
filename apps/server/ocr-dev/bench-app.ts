/** The OCR benchmarks' harness: the real app (PGlite, its own OCR pool), a user with a vehicle, and a preview through the HTTP route. */
import { createTestApp } from '../test/helpers/app.js';
import { registered } from '../test/helpers/client.js';
import { multipart } from '../test/helpers/multipart.js';

export type Preview = { ms: number; status: number; data: Record<string, unknown> | undefined };

export async function benchApp() {
  const t = await createTestApp();
  const { client } = await registered(t.app, 'bench');
  const vehicle = (
    await client.post('/api/vehicles', {
      make: 'Dacia',
      model: 'Logan',
      year: 2019,
      fuelType: 'DIESEL',
      registrationNumber: 'B-01-BNC',
      engineSize: 1.5,
      odometer: 1000,
      aiEvaluationConsent: false,
    })
  ).data.id;
  /** POST /api/fuel-ocr/preview/:vehicle with the photo, timed from the request to the answer. */
  const preview = async (photo: Buffer, type = 'image/jpeg'): Promise<Preview> => {
    const { payload, headers } = multipart([
      { name: 'file', file: { filename: 'r.jpg', type, bytes: photo } },
    ]);
    const t0 = performance.now();
    let res = await client.request('POST', `/api/fuel-ocr/preview/${vehicle}`, payload, { headers });
    if (res.statusCode === 401) {
      // The access token expired during a long run (on a loaded machine): refresh as the web app does.
      await client.post('/api/auth/refresh');
      res = await client.request('POST', `/api/fuel-ocr/preview/${vehicle}`, payload, { headers });
    }
    return { ms: performance.now() - t0, status: res.statusCode, data: res.data };
  };
  return { preview, close: () => t.close() };
}

/** The p-th percentile (nearest rank below) of `xs`. */
export const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};

/** This process's resident memory in MB (the OCR workers are threads: their heaps count). */
export const rssMb = () => Math.round(process.memoryUsage().rss / 1024 / 1024);

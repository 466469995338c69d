// `npm run bench:api`: GET /api/vehicles for a user with 50 vehicles, under autocannon (50 connections,
// 10 s), on PGlite and on PostgreSQL, beside a bare Fastify route answering the same JSON in the
// same run. Prints req/s, p50/p99 and the ratios. Target on PostgreSQL: ≥ 40% of the bare route's
// req/s with p99 ≤ 25 ms. Figures only; it never fails on timing.
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fmt, load, pgAvailable, port, post, session, startProcess, startServer } from './lib.mjs';

const DURATION = Number(process.env.DURATION ?? 10);
const kinds = ['pglite', ...((await pgAvailable()) ? ['postgres'] : [])];
const rows = [];

for (const kind of kinds) {
  const server = await startServer(kind);
  try {
    const headers = await session(server.base, `bench_${kind}`);
    for (let i = 0; i < 50; i++) {
      await post(server.base, '/api/vehicles', headers, {
        make: ['Dacia', 'Skoda', 'BMW', 'Renault', 'Ford'][i % 5],
        model: `Model ${i}`,
        year: 2005 + (i % 20),
        fuelType: ['PETROL', 'DIESEL', 'GPL', 'ELECTRIC'][i % 4],
        registrationNumber: `B-${100 + i}-BEN`,
        engineSize: 1 + (i % 30) / 10,
        odometer: 10_000 * i,
        aiEvaluationConsent: i % 2 === 0,
      });
    }
    const url = `${server.base}/api/vehicles`;
    const json = await (await fetch(url, { headers })).text();
    const bodyFile = join(tmpdir(), `evdra-bench-body-${process.pid}.json`);
    writeFileSync(bodyFile, json);

    const barePort = port();
    const bare = await startProcess(
      new URL('./bare-server.mjs', import.meta.url).pathname,
      { PORT: String(barePort), BODY_FILE: bodyFile },
      `http://127.0.0.1:${barePort}/api/health`,
    );
    try {
      await load(url, headers, { duration: 2 }); // warm-up
      const real = await load(url, headers, { duration: DURATION });
      const baseline = await load(`http://127.0.0.1:${barePort}/api/vehicles`, {}, { duration: DURATION });
      rows.push({ kind, real, baseline, bytes: json.length });
    } finally {
      await bare.stop();
    }
  } finally {
    await server.stop();
  }
}

console.log(
  `\nGET /api/vehicles, 50 vehicles (≈${fmt(rows[0]?.bytes / 1024, 1)} KiB), autocannon 50 connections × ${DURATION} s\n`,
);
console.log('database    route            req/s     p50 ms   p99 ms   ratio');
for (const { kind, real, baseline } of rows) {
  console.log(
    `${kind.padEnd(11)} bare Fastify  ${fmt(baseline.rps).padStart(9)} ${fmt(baseline.p50).padStart(8)} ${fmt(baseline.p99).padStart(8)}`,
  );
  console.log(
    `${kind.padEnd(11)} Evdra         ${fmt(real.rps).padStart(9)} ${fmt(real.p50).padStart(8)} ${fmt(real.p99).padStart(8)}   ${fmt((100 * real.rps) / baseline.rps, 1)}% of bare`,
  );
}
const pgRow = rows.find((r) => r.kind === 'postgres');
if (pgRow) {
  const ratio = pgRow.real.rps / pgRow.baseline.rps;
  console.log(
    `\nTarget on PostgreSQL: ≥ 40% of bare req/s and p99 ≤ 25 ms → ${fmt(100 * ratio, 1)}%, p99 ${pgRow.real.p99} ms: ${ratio >= 0.4 && pgRow.real.p99 <= 25 ? 'met' : 'NOT met'}`,
  );
}

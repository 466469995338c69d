// `npm run bench:files`: serving stored files (GET /api/files/:id) on PostgreSQL and PGlite.
//  1. A re-encoded photo (the usual case) under autocannon, 50 connections: req/s, p50, p99.
//  2. A large file (LARGE_MB, default 20, put straight into the database as an older version's file
//     could be) downloaded by LARGE_CLIENTS (10) clients in a loop for DURATION s, while the server's
//     RSS is sampled every 50 ms: peak RSS above the idle baseline shows whether whole files are
//     held in memory (10 × 20 MB buffered would add ≥ 200 MB; streamed, a few chunks per client).
//
//   DURATION=5   seconds per measurement      KINDS=postgres,pglite      PARTS=photo,large
//   SERVER_MAIN=<older dist/main.js>          for a before/after run (bench/lib.mjs)
//
// Figures only; it fails only when a download is not byte-identical or a request fails.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import {
  addCar,
  fmt,
  load,
  pgAvailable,
  port,
  serverMain,
  session,
  startProcess,
  startServer,
  uploadPhoto,
} from './lib.mjs';

const DURATION = Number(process.env.DURATION ?? 5);
const LARGE_MB = Number(process.env.LARGE_MB ?? 20);
const LARGE_CLIENTS = Number(process.env.LARGE_CLIENTS ?? 10);
const PARTS = (process.env.PARTS ?? 'photo,large').split(',');
const wanted = (process.env.KINDS ?? 'postgres,pglite').split(',');
const kinds = [];
if (wanted.includes('postgres') && (await pgAvailable())) kinds.push('postgres');
if (wanted.includes('pglite')) kinds.push('pglite');

const photo = readFileSync(new URL('../test/fixtures/car-gps.jpg', import.meta.url));
const large = randomBytes(LARGE_MB * 1024 * 1024);
const LARGE_ID = 'bench_large_file_0001';

console.log(`Server: ${serverMain}. Node ${process.version}.`);
for (const kind of kinds) {
  let server = await startServer(kind);
  let pid = server.pid;
  let stopRestarted;
  try {
    const user = await session(server.base, 'bench_files');
    const vehicle = await addCar(server.base, user, { registrationNumber: 'B-1-FIL', odometer: 1000 });
    const photoUrl = await uploadPhoto(server.base, user, vehicle.id, photo);

    // The large file goes in beside the server (PostgreSQL) or while it is stopped (PGlite's dir).
    const insert = async (query) => {
      await query('insert into file_blobs (id, bytes) values ($1, $2)', [LARGE_ID, large]);
      await query('insert into files (id, vehicle_id, content_type, size) values ($1, $2, $3, $4)', [
        LARGE_ID,
        vehicle.id,
        'application/octet-stream',
        large.length,
      ]);
    };
    if (kind === 'postgres') {
      const c = new pg.Client({ connectionString: server.databaseUrl });
      await c.connect();
      await insert((text, values) => c.query(text, values)).finally(() => c.end());
    } else {
      await server.halt();
      const db = await PGlite.create(join(server.dataDir, 'pglite'));
      await insert((text, values) => db.query(text, values)).finally(() => db.close());
      const p = port();
      const base = `http://127.0.0.1:${p}`;
      const proc = await startProcess(
        serverMain,
        { PORT: String(p), HOST: '127.0.0.1', DATA_DIR: server.dataDir, LOG_LEVEL: 'warn' },
        `${base}/api/health`,
      );
      stopRestarted = proc.stop;
      server = { ...server, base };
      pid = proc.pid;
    }

    const headers = { cookie: user.cookie };
    if (PARTS.includes('photo')) {
      const small = `${server.base}${photoUrl}`;
      const served = (await (await fetch(small, { headers })).arrayBuffer()).byteLength;
      await load(small, headers, { duration: 1 });
      const r = await load(small, headers, { duration: DURATION, connections: 50 });
      console.log(
        `\n${kind}: GET /api/files/:id, a ${fmt(served / 1024, 1)} KiB photo, 50 connections × ${DURATION} s: ${fmt(r.rps)} req/s, p50 ${fmt(r.p50)} ms, p99 ${fmt(r.p99)} ms`,
      );
    }
    if (!PARTS.includes('large')) continue;
    const m = await largeDownloads(`${server.base}/api/files/${LARGE_ID}`, headers, pid);
    console.log(
      `${kind}: ${LARGE_MB} MB file, ${LARGE_CLIENTS} clients × ${DURATION} s: ${m.downloads} downloads, ${fmt(m.mbPerSecond)} MB/s; server RSS idle ${fmt(m.baseline)} MB, peak ${fmt(m.peak)} MB (+${fmt(m.peak - m.baseline)} MB, ${fmt((m.peak - m.baseline) / LARGE_CLIENTS, 1)} MB per client)`,
    );
  } finally {
    await stopRestarted?.();
    await server.stop();
  }
}
console.log(
  '\nOn a shared, loaded machine absolute figures are low; compare runs made in the same conditions.',
);

/** MB of resident memory of process `pid` (Linux). */
function rssOf(pid) {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;
}

async function largeDownloads(url, headers, pid) {
  // Warm up once and check the bytes.
  const first = Buffer.from(await (await fetch(url, { headers })).arrayBuffer());
  if (Buffer.compare(first, large) !== 0) throw new Error('the large file came back different');
  await new Promise((r) => setTimeout(r, 500));
  const baseline = rssOf(pid);
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssOf(pid));
  }, 50);
  let downloads = 0;
  let bytes = 0;
  const started = performance.now();
  const end = started + DURATION * 1000;
  await Promise.all(
    Array.from({ length: LARGE_CLIENTS }, async () => {
      while (performance.now() < end) {
        const res = await fetch(url, { headers });
        if (!res.ok) throw new Error(`GET large file: ${res.status}`);
        let got = 0;
        for await (const chunk of res.body) got += chunk.length;
        if (got !== large.length) throw new Error(`GET large file: ${got} of ${large.length} bytes`);
        downloads += 1;
        bytes += got;
      }
    }),
  );
  clearInterval(sampler);
  const seconds = (performance.now() - started) / 1000;
  return { baseline, peak, downloads, mbPerSecond: bytes / 1024 / 1024 / seconds };
}

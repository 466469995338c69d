// Baselines for bench:api. A bare Fastify route answering a fixed JSON body (no auth, no database),
// and, with ROUTES_FILE, the ceiling of any Fastify + pg server: each route runs the very statements
// Evdra sent for it through a pg pool of the server's size, then answers Evdra's recorded body.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import pg from 'pg';

const app = Fastify({ logger: false });
app.get('/api/health', async () => ({ status: 'ok' }));
if (process.env.BODY_FILE) {
  const body = readFileSync(process.env.BODY_FILE, 'utf8');
  app.get('/api/vehicles', async (_req, reply) => reply.type('application/json; charset=utf-8').send(body));
}
const pool = process.env.DATABASE_URL
  ? new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.POOL ?? 10) })
  : undefined;
if (process.env.ROUTES_FILE && pool) {
  for (const { path, statements, type, body } of JSON.parse(readFileSync(process.env.ROUTES_FILE, 'utf8'))) {
    const bytes = Buffer.from(body, 'base64');
    app.get(path, async (_req, reply) => {
      for (const s of statements) await pool.query({ text: s.text, values: s.values, name: s.name });
      return reply.type(type).send(bytes);
    });
  }
}
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => Promise.all([app.close(), pool?.end()]).then(() => process.exit(0)));

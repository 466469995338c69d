// Baseline for bench:api: a bare Fastify route answering a fixed JSON body (no auth, no database).
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const body = readFileSync(process.env.BODY_FILE, 'utf8');
const app = Fastify({ logger: false });
app.get('/api/health', async () => ({ status: 'ok' }));
app.get('/api/vehicles', async (_req, reply) => reply.type('application/json; charset=utf-8').send(body));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));

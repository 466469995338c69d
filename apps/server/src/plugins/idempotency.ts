import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/client.js';
import { AppError } from '../lib/errors.js';
import { IdempotencyRepo } from './idempotency.repo.js';

const TTL_MS = 24 * 60 * 60 * 1000;
const HEADER = 'idempotency-key';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * preHandler for create routes (after requireUser): the same Idempotency-Key from the same user
     * within 24 h replays the first response instead of creating again.
     */
    idempotent: (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
  interface FastifyRequest {
    idempotencyKey?: string;
  }
}

export const idempotencyPlugin = fp(
  async (app: FastifyInstance, { db, now }: { db: Db; now: () => Date }) => {
    const repo = new IdempotencyRepo(db);
    const idempotent = async (req: FastifyRequest, reply: FastifyReply) => {
      const key = req.headers[HEADER];
      const userId = req.principal?.userId;
      if (typeof key !== 'string' || !userId) return;
      if (key.length < 8 || key.length > 200) {
        throw new AppError(400, 'VALIDATION_FAILED', 'Idempotency-Key must be 8 to 200 characters.', [
          { field: 'Idempotency-Key', message: 'Must be 8 to 200 characters.' },
        ]);
      }
      const path = req.routeOptions.url ?? req.url;
      // Forget a key past its 24 h, or one whose first request died without an answer a minute ago.
      const t = now().getTime();
      await repo.forgetStale(userId, key, new Date(t - TTL_MS), new Date(t - 60_000));
      if (await repo.claim({ userId, key, method: req.method, path, createdAt: now() })) {
        req.idempotencyKey = key;
        return;
      }
      const first = await repo.find(userId, key);
      if (!first || first.method !== req.method || first.path !== path) {
        throw new AppError(
          422,
          'IDEMPOTENCY_KEY_REUSED',
          'This Idempotency-Key was used for another request.',
        );
      }
      if (first.statusCode === null || first.body === null) {
        throw new AppError(
          409,
          'CONFLICT',
          'The first request with this Idempotency-Key is still being processed.',
        );
      }
      return reply
        .status(first.statusCode)
        .header('content-type', 'application/json; charset=utf-8')
        .header('idempotent-replayed', 'true')
        .send(first.body);
    };
    app.decorate('idempotent', idempotent);

    // Keep successful answers for replay; forget failed ones so the client may retry. Only the
    // routes that take a key run this (added as each is registered), not every answer.
    const keepAnswer: onSendHookHandler = (req, reply, payload, done) => {
      const key = req.idempotencyKey;
      const userId = req.principal?.userId;
      if (!key || !userId) return done(null, payload);
      const kept =
        reply.statusCode < 300 && typeof payload === 'string'
          ? repo.saveAnswer(userId, key, reply.statusCode, payload)
          : repo.forget(userId, key);
      kept.then(
        () => done(null, payload),
        (err: Error) => done(err),
      );
    };
    app.addHook('onRoute', (route) => {
      if (![route.preHandler].flat().includes(idempotent)) return;
      route.onSend = [...[route.onSend ?? []].flat(), keepAnswer];
    });

    const prune = setInterval(() => {
      repo
        .prune(new Date(now().getTime() - TTL_MS))
        .catch((err) => app.log.warn({ err }, 'pruning idempotency keys failed'));
    }, TTL_MS / 24).unref();
    app.addHook('onClose', async () => clearInterval(prune));
  },
);

import {
  AiStatus,
  ApiError,
  CHAT_PROMPTS_PER_MINUTE,
  ChatMessage,
  ChatPrompt,
  ChatResponse,
  IdParams,
  Vehicle,
  VehicleIdParams,
} from '@evdra/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendJsonText } from '../../lib/serializer.js';
import { principalOf } from '../../plugins/auth.js';
import type { AiService } from './ai.service.js';

const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 409: ApiError, 429: ApiError };
const lang = (req: FastifyRequest) => req.headers['accept-language'];
const consentNote =
  "Its owner, editors and viewers (404 for anyone else, admins included). Needs the vehicle's aiEvaluationConsent (409 AI_CONSENT_REQUIRED). In the user's language.";

export async function aiRoutes(app: FastifyInstance, { service }: { service: AiService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const user = { preHandler: app.requireUser };
  // Per user, in the shared rate-limit store (Redis with REDIS_URL), so replicas share one budget.
  const chatLimit = app.rateLimit({
    max: CHAT_PROMPTS_PER_MINUTE,
    timeWindow: '1 minute',
    keyGenerator: (req) => `chat:${principalOf(req).userId}`,
    errorResponseBuilder: (_req, ctx) => ({
      statusCode: 429,
      code: 'RATE_LIMITED',
      message: `At most ${CHAT_PROMPTS_PER_MINUTE} questions a minute. Retry in ${ctx.after}.`,
    }),
  });

  r.get(
    '/api/ai/status',
    {
      ...user,
      schema: {
        tags: ['ai'],
        description: "Which provider answers: 'builtin' (offline) or 'llm' (an OpenAI-compatible server).",
        response: { 200: AiStatus, ...errors },
      },
    },
    async () => service.status(),
  );

  r.post(
    '/api/vehicles/:id/evaluate-ai',
    {
      ...user,
      schema: {
        tags: ['ai', 'vehicles'],
        description: `Scores the vehicle 1–10 with a reason (transparent rubric) and keeps both on the vehicle; re-evaluating replaces them. Only the owner evaluates (403 for an editor or viewer). ${consentNote}`,
        params: IdParams,
        response: { 200: Vehicle, ...errors },
      },
    },
    async (req) => service.evaluate(principalOf(req), req.params.id, lang(req)),
  );

  for (const kind of ['performance', 'fuel'] as const) {
    r.get(
      `/ai-feedback/vehicle/:vehicleId/${kind}`,
      {
        ...user,
        schema: {
          tags: ['ai'],
          description: `${kind === 'performance' ? 'Cost summary' : 'Fuel summary'} of the vehicle as text/plain. ${consentNote}`,
          params: VehicleIdParams,
          response: { 200: z.string(), ...errors },
        },
      },
      async (req, reply) => {
        const p = principalOf(req);
        const text =
          kind === 'performance'
            ? await service.performance(p, req.params.vehicleId, lang(req))
            : await service.fuel(p, req.params.vehicleId, lang(req));
        return reply.type('text/plain; charset=utf-8').header('cache-control', 'no-store').send(text);
      },
    );
  }

  const history = {
    ...user,
    schema: {
      tags: ['chat'],
      description:
        "The caller's conversation with the virtual mechanic, oldest first (the newest 200 messages).",
      response: { 200: z.array(ChatMessage), ...errors },
    },
  };
  const answerHistory = async (req: FastifyRequest, reply: FastifyReply) =>
    sendJsonText(reply, await service.historyJson(principalOf(req)));
  r.get('/api/chat/history', history, answerHistory);
  r.get('/api/chat', history, answerHistory);

  r.post(
    '/api/chat',
    {
      preHandler: [app.requireUser, chatLimit],
      schema: {
        tags: ['chat'],
        description:
          'Asks the virtual mechanic. Blank prompts 400; at most 2,000 characters; at most 20 prompts per user per minute (429).',
        body: ChatPrompt,
        response: { 200: ChatResponse, ...errors },
      },
    },
    async (req) => ({ response: await service.chat(principalOf(req), req.body.prompt, lang(req)) }),
  );

  r.delete(
    '/api/chat/history',
    {
      ...user,
      schema: {
        tags: ['chat'],
        description: "Deletes the caller's whole conversation.",
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await service.clearHistory(principalOf(req));
      return reply.status(204).send(null);
    },
  );
}

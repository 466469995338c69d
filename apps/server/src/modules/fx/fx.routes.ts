import { ApiError, FxRate, FxRateQuery } from '@evdra/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/errors.js';
import type { FxService } from './fx.service.js';

const errors = { 400: ApiError, 401: ApiError, 404: ApiError };
const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/** GET /api/fx/rate: an exchange rate on a day, for any logged-in user (the rates are public). */
export async function fxRoutes(
  app: FastifyInstance,
  { service, now }: { service: FxService; now: () => Date },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/fx/rate',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['fx'],
        description:
          'Units of `to` for one `from` on `date` (default: today, UTC), crossed through the euro from the ECB reference rates the server keeps. A weekend or holiday gets the previous business day that has a rate: `date` is then that day and `carried` is true. 404 NOT_FOUND when no rate is known for the day or the ten days before it (MDL: only when a MANUAL rate is stored, the ECB publishes none); 400 for an unknown currency or a date that is not YYYY-MM-DD.',
        querystring: FxRateQuery,
        response: { 200: FxRate, ...errors },
      },
    },
    async (req) => {
      const { from, to, date = isoDay(now()) } = req.query;
      const rate = await service.rate(from, to, date);
      if (!rate) {
        throw new AppError(404, 'NOT_FOUND', `No exchange rate from ${from} to ${to} is known for ${date}.`);
      }
      return rate;
    },
  );
}

import {
  AdminAnalyticsQuery,
  AdminMonthsQuery,
  AllTimeTotals,
  AnalyticsCurrencyQuery,
  AnalyticsRow,
  ApiError,
  CAR_MONTHS_CAP,
  CAR_MONTHS_PAGE_MAX,
  GlobalMonth,
  MonthlyAnalytics,
  UserAnalyticsQuery,
  VehicleIdParams,
  YearlyAnalytics,
} from '@evdra/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendPage } from '../../lib/next-page.js';
import { sendJsonText } from '../../lib/serializer.js';
import { principalOf } from '../../plugins/auth.js';
import type { AnalyticsService } from './analytics.service.js';

const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError };
const currencyNote =
  'Amounts are in `currency` (answered): the one asked for with ?currency=, else the reader’s. Each record counts at the rate stored with it (its owner’s currency), another currency at the day’s reference rate.';
const carMonthsNote = `At most ${CAR_MONTHS_CAP} car-months without \`limit\`; \`limit\` (1-${CAR_MONTHS_PAGE_MAX}) asks for a page of car-months. When more follow, X-Next-Cursor holds the cursor to send back as \`cursor\`, and Link (rel="next") the next page's URL.`;
const policyNote =
  "A policy's price counts in the month its startDate falls in. A renewal's price (RCA, ITP, road tax…) " +
  'counts as an expense, in the month of its validFrom, or of the day it was entered without one.';

export async function analyticsRoutes(app: FastifyInstance, { service }: { service: AnalyticsService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const user = { preHandler: app.requireUser };
  const tags = ['analytics'];
  const vehicle = '/api/analytics/vehicle/:vehicleId';

  r.get(
    `${vehicle}/recompute`,
    {
      ...user,
      schema: {
        tags,
        description: `Monthly costs of one vehicle for each month with any cost, newest first; byFuel splits each month's fuel by fuel (as /total's, over that month's fills). ${policyNote} ${currencyNote} 404 when no rate to the currency asked for is known.`,
        params: VehicleIdParams,
        querystring: AnalyticsCurrencyQuery,
        response: { 200: z.array(MonthlyAnalytics), ...errors },
      },
    },
    async (req, reply) =>
      sendJsonText(
        reply,
        await service.vehicleJson(principalOf(req), 'monthly', req.params.vehicleId, req.query.currency),
      ),
  );

  r.get(
    `${vehicle}/total`,
    {
      ...user,
      schema: {
        tags,
        description: `All-time totals, km driven (from the odometer readings) and cost per km (null when unknown). ${policyNote} ${currencyNote} 404 when no rate to the currency asked for is known.`,
        params: VehicleIdParams,
        querystring: AnalyticsCurrencyQuery,
        response: { 200: AllTimeTotals, ...errors },
      },
    },
    async (req, reply) =>
      sendJsonText(
        reply,
        await service.vehicleJson(principalOf(req), 'total', req.params.vehicleId, req.query.currency),
      ),
  );

  r.get(
    `${vehicle}/yearly`,
    {
      ...user,
      schema: {
        tags,
        description: `Totals by year: {"2025": {...}}. ${policyNote} ${currencyNote} 404 when no rate to the currency asked for is known.`,
        params: VehicleIdParams,
        querystring: AnalyticsCurrencyQuery,
        response: { 200: YearlyAnalytics, ...errors },
      },
    },
    async (req, reply) =>
      sendJsonText(
        reply,
        await service.vehicleJson(principalOf(req), 'yearly', req.params.vehicleId, req.query.currency),
      ),
  );

  r.get(
    '/api/analytics/user',
    {
      ...user,
      schema: {
        tags,
        description: `The caller's vehicles (own and shared with them; own=true: only own) by month, newest month first, then by vehicle; byFuel splits each row's fuel cost by fuel (the fuels with fills that month, primary first; no per100km). ${policyNote} ${currencyNote} A row whose owner’s currency has no known rate to it stays in that currency and says so. ${carMonthsNote}`,
        querystring: UserAnalyticsQuery,
        response: { 200: z.array(AnalyticsRow), ...errors },
      },
    },
    async (req, reply) =>
      sendPage(
        reply,
        req.url,
        await service.user(principalOf(req), { ...req.query, own: req.query.own === 'true' }),
      ),
  );

  r.get(
    '/api/analytics/admin/filter',
    {
      preHandler: app.requireAdmin,
      schema: {
        tags,
        description: `Every vehicle of every owner by month, newest month first, then by vehicle; optional start and end months (YYYY-MM, inclusive); byFuel as on /api/analytics/user. Admin only. ${policyNote} Amounts are in ?currency= (default: the instance’s CURRENCY); a row whose owner’s currency has no known rate to it stays in that currency and says so. ${carMonthsNote}`,
        querystring: AdminAnalyticsQuery,
        response: { 200: z.array(AnalyticsRow), ...errors },
      },
    },
    async (req, reply) => sendPage(reply, req.url, await service.admin(req.query)),
  );

  r.get(
    '/api/analytics/admin/months',
    {
      preHandler: app.requireAdmin,
      schema: {
        tags,
        description: `Every vehicle of every owner added up by month, newest first; optional start and end months (YYYY-MM, inclusive). Read from a rollup kept across all cars (a dozen rows a month, however many cars): each month's totals are /api/analytics/admin/filter's rows of that month added up. Admin only. ${policyNote} Amounts are in ?currency= (default: the instance’s CURRENCY), each month's sum in each currency converted once; a sum in a currency without a known rate to it stays in that currency, in a row of its own.`,
        querystring: AdminMonthsQuery,
        response: { 200: z.array(GlobalMonth), ...errors },
      },
    },
    async (req, reply) => sendJsonText(reply, await service.adminMonths(req.query)),
  );
}

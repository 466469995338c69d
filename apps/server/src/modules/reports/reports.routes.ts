import {
  ApiError,
  IdParams,
  type Language,
  ReportCodeParams,
  ReportLink,
  ReportLinkBody,
  ReportLinkCreated,
  ReportLinkParams,
  ReportNotGenuine,
  ReportQuery,
  ReportVerification,
} from '@evdra/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { languageFromHeader } from '../../ai/format.js';
import { principalOf } from '../../plugins/auth.js';
import { notFoundHtml, reportHtml, verifyHtml } from './report-html.js';
import type { ReportsService } from './reports.service.js';
import { normalizeCode } from './reports.service.js';

const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError };
const tags = ['reports'];
const TOKEN = /^[A-Za-z0-9_-]{40,100}$/;
const LangQuery = z.object({ lang: z.string().optional() });

/** `?lang=`, else the browser's Accept-Language, else English. */
function languageOf(req: FastifyRequest, query?: string): Language {
  if (query === 'en' || query === 'ro' || query === 'es') return query;
  return languageFromHeader(req.headers['accept-language']) ?? 'en';
}

type Options = { service: ReportsService; publicPerMinute?: number };

export async function reportsRoutes(app: FastifyInstance, { service, publicPerMinute = 60 }: Options) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const user = { preHandler: app.requireUser };
  // The public routes (no login) share one counter per IP: a link cannot be used to hammer the server.
  const limit = app.rateLimit({ max: publicPerMinute, timeWindow: '1 minute' });

  const sendPdf = (reply: FastifyReply, { pdf, filename }: { pdf: Buffer; filename: string }) =>
    reply
      .type('application/pdf')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .header('cache-control', 'no-store')
      .send(pdf);

  r.get(
    '/api/vehicles/:id/report.pdf',
    {
      ...user,
      schema: {
        tags,
        description:
          'The vehicle’s history report as an A4 PDF (application/pdf) in `lang` (else Accept-Language, else English), for anyone who may see the vehicle; 404 for anyone else. Its amounts are in the caller’s currency (converted as the caller’s vehicle analytics are; the owner’s when no rate to it is known) and its measures in the caller’s units; a share link’s report is in the owner’s. Each report gets a verification code (see /api/report/verify/{code}), the same for the same content whoever reads it. `pages=1`: the owner appends the first page of each document that is not private (photos embedded; a PDF is named, not embedded); from an editor or viewer it is ignored.',
        params: IdParams,
        querystring: ReportQuery,
        response: errors,
      },
    },
    async (req, reply) =>
      sendPdf(
        reply,
        await service.pdf(principalOf(req), req.params.id, languageOf(req, req.query.lang), {
          pages: req.query.pages,
        }),
      ),
  );

  r.post(
    '/api/vehicles/:id/report-links',
    {
      ...user,
      schema: {
        tags,
        description: 'Creates a read-only share link to the report (the owner only), valid 1..90 days.',
        params: IdParams,
        body: ReportLinkBody,
        response: { 201: ReportLinkCreated, ...errors },
      },
    },
    async (req, reply) =>
      reply
        .status(201)
        .send(await service.createLink(principalOf(req), req.params.id, req.body.expiresInDays)),
  );

  r.get(
    '/api/vehicles/:id/report-links',
    {
      ...user,
      schema: {
        tags,
        description:
          'The vehicle’s open share links (neither expired nor revoked), soonest to expire first. Owner only.',
        params: IdParams,
        response: { 200: z.array(ReportLink), ...errors },
      },
    },
    async (req) => service.links(principalOf(req), req.params.id),
  );

  r.delete(
    '/api/vehicles/:id/report-links/:token',
    {
      ...user,
      schema: {
        tags,
        description:
          'Revokes a share link at once (404 when it is not an open link of this vehicle). Owner only.',
        params: ReportLinkParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await service.revoke(principalOf(req), req.params.id, req.params.token);
      return reply.status(204).send(null);
    },
  );

  r.get(
    '/api/report/verify/:code',
    {
      onRequest: limit,
      schema: {
        tags,
        description:
          'Whether a printed report is genuine: `genuine: true` with the vehicle, generation time and odometer its verification code was issued for; an unknown code is 404 with the error shape and `genuine: false`. No login; rate-limited.',
        params: ReportCodeParams,
        response: { 200: ReportVerification, 400: ApiError, 404: ReportNotGenuine, 429: ApiError },
      },
    },
    async (req, reply) => {
      const found = await service.check(req.params.code);
      if (found) return found;
      return reply
        .status(404)
        .send({ code: 'NOT_FOUND', message: 'No report was issued with this code.', genuine: false });
    },
  );

  // ── the public page of a share link: server-rendered HTML, not the web app ──
  const publicHeaders = (reply: FastifyReply) =>
    reply.header('x-robots-tag', 'noindex, nofollow').header('cache-control', 'no-store');
  const gone = (req: FastifyRequest, reply: FastifyReply, lang?: string) =>
    publicHeaders(reply)
      .status(404)
      .type('text/html; charset=utf-8')
      .send(notFoundHtml(languageOf(req, lang)));

  r.get(
    '/r/:token',
    {
      onRequest: limit,
      schema: { hide: true, params: z.object({ token: z.string() }), querystring: LangQuery },
    },
    async (req, reply) => {
      const lang = languageOf(req, req.query.lang);
      const found = TOKEN.test(req.params.token) ? await service.shared(req.params.token, lang) : undefined;
      if (!found) return gone(req, reply, req.query.lang);
      const base = `/r/${req.params.token}`;
      const html = reportHtml(found.model, {
        pdfUrl: `${base}/report.pdf?lang=${lang}`,
        ...(found.model.vehicle.photoId ? { photoUrl: `${base}/photo` } : {}),
        expiresAt: found.link.expiresAt,
        verifyUrl: service.verifyUrl(found.model.code),
      });
      return publicHeaders(reply)
        .type('text/html; charset=utf-8')
        .header('content-language', lang)
        .send(html);
    },
  );

  r.get(
    '/r/:token/report.pdf',
    {
      onRequest: limit,
      schema: { hide: true, params: z.object({ token: z.string() }), querystring: LangQuery },
    },
    async (req, reply) => {
      if (!TOKEN.test(req.params.token)) return gone(req, reply, req.query.lang);
      try {
        const pdf = await service.sharedPdf(req.params.token, languageOf(req, req.query.lang));
        return sendPdf(publicHeaders(reply), pdf);
      } catch (err) {
        if ((err as { statusCode?: number }).statusCode === 404) return gone(req, reply, req.query.lang);
        throw err;
      }
    },
  );

  // The printed report's "check it at …" page: genuine or not, in the reader's language.
  r.get(
    '/v/:code',
    {
      onRequest: limit,
      schema: { hide: true, params: z.object({ code: z.string() }), querystring: LangQuery },
    },
    async (req, reply) => {
      const lang = languageOf(req, req.query.lang);
      const typed = req.params.code.slice(0, 40);
      const found = await service.check(typed);
      const code = found?.code ?? normalizeCode(typed) ?? typed;
      return publicHeaders(reply)
        .status(found ? 200 : 404)
        .type('text/html; charset=utf-8')
        .header('content-language', lang)
        .send(verifyHtml(lang, code, found));
    },
  );
  // Its form: `/v?code=…` goes to the code's page; without one, only the form.
  r.get(
    '/v',
    {
      onRequest: limit,
      schema: {
        hide: true,
        querystring: z.object({ code: z.string().optional(), lang: z.string().optional() }),
      },
    },
    async (req, reply) => {
      const lang = languageOf(req, req.query.lang);
      const code = req.query.code?.trim().slice(0, 40);
      if (code) {
        const target = normalizeCode(code) ?? code;
        return reply.redirect(`/v/${encodeURIComponent(target)}?lang=${lang}`, 303);
      }
      return publicHeaders(reply)
        .type('text/html; charset=utf-8')
        .header('content-language', lang)
        .send(verifyHtml(lang, ''));
    },
  );

  r.get(
    '/r/:token/photo',
    { onRequest: limit, schema: { hide: true, params: z.object({ token: z.string() }) } },
    async (req, reply) => {
      const bytes = TOKEN.test(req.params.token) ? await service.sharedPhoto(req.params.token) : undefined;
      if (!bytes) return gone(req, reply);
      return publicHeaders(reply).type('image/jpeg').send(bytes);
    },
  );
}

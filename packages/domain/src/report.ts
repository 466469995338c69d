import { z } from 'zod';
import { Language } from './enums.js';
import { ApiError } from './errors.js';

/** `?lang=` of a report; the caller's saved language (or the browser's) when absent. */
export const ReportQuery = z.object({
  lang: Language.optional(),
  /**
   * `pages=1`: the owner appends the first page of each document that is not private (issue 52);
   * anyone else asking gets the report without them.
   */
  pages: z
    .enum(['0', '1', 'true', 'false'])
    .optional()
    .transform((v) => v === '1' || v === 'true'),
});

/** POST /api/vehicles/{id}/report-links */
export const ReportLinkBody = z.object({
  expiresInDays: z
    .number({ error: 'Enter a number of days.' })
    .int('Enter a whole number of days.')
    .min(1, 'At least 1 day.')
    .max(90, 'At most 90 days.'),
});
export type ReportLinkBody = z.infer<typeof ReportLinkBody>;

/** A share link to a vehicle's history report (the public page `/r/{token}`). */
export const ReportLink = z.object({
  url: z.string(),
  token: z.string(),
  expiresAt: z.string(),
  createdAt: z.string(),
  /** Set when the link was made for a marketplace listing (and ends with it). */
  listingId: z.number().int().nullable(),
});
export type ReportLink = z.infer<typeof ReportLink>;

/** POST answer: the new link. */
export const ReportLinkCreated = z.object({ url: z.string(), token: z.string(), expiresAt: z.string() });

export const ReportLinkParams = z.object({
  id: z.coerce.number().int().positive(),
  token: z.string().min(1).max(100),
});

/** Verification codes look like `ABCD-EFGH-JK` (Crockford base32); case and dashes are forgiven. */
export const ReportCodeParams = z.object({ code: z.string().trim().min(1).max(40) });

/** GET /api/report/verify/{code}: what the printed report with that code was generated from. */
export const ReportVerification = z.object({
  genuine: z.literal(true),
  code: z.string(),
  vehicle: z.object({
    make: z.string(),
    model: z.string(),
    year: z.number().int(),
    registrationNumber: z.string(),
  }),
  generatedAt: z.string(),
  odometer: z.number().int(),
});
export type ReportVerification = z.infer<typeof ReportVerification>;

/** GET /api/report/verify/{code} of a code no report was issued with: 404, the error shape and `genuine: false`. */
export const ReportNotGenuine = ApiError.extend({ genuine: z.literal(false) });
export type ReportNotGenuine = z.infer<typeof ReportNotGenuine>;

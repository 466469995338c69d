import { z } from 'zod';

/** An optional service (Redis, SMTP, AI, push) as GET /api/health reports it: never an address or a secret. */
export const ServiceHealth = z.object({
  configured: z.boolean(),
  /** null when it is not configured (nothing to check). */
  reachable: z.boolean().nullable(),
  /** Why the last check failed: a code such as ECONNREFUSED, TIMEOUT or HTTP 401. */
  error: z.string().optional(),
});
export type ServiceHealth = z.infer<typeof ServiceHealth>;

export const DatabaseKind = z.enum(['pglite', 'postgres']);

/**
 * GET /api/health: 200 while the process answers. `status` is `degraded` when the database does
 * not answer; the optional services are reported, not required.
 */
export const Health = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.object({
    kind: DatabaseKind,
    reachable: z.boolean(),
    error: z.string().optional(),
  }),
  services: z.record(z.string(), ServiceHealth),
});
export type Health = z.infer<typeof Health>;

/** GET /api/health/ready: 200 when the server can serve requests (503 otherwise, in the error shape). */
export const Readiness = z.object({ status: z.literal('ready') });
export type Readiness = z.infer<typeof Readiness>;

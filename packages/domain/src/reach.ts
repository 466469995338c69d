import { z } from 'zod';

// ── Calendar feed ───────────────────────────────────────────────────────────
export const CalendarLink = z.object({ url: z.string() });
export type CalendarLink = z.infer<typeof CalendarLink>;
/** A wrong token is 404, not 400: only its length is bounded here. */
export const CalendarParams = z.object({ token: z.string().max(2048) });

// ── Web Push ────────────────────────────────────────────────────────────────
export const PushPublicKey = z.object({ publicKey: z.string() });

/** Bytes of a base64url text, or -1 when it is not base64url. */
function base64urlBytes(s: string): number {
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(s)) return -1;
  const n = s.replace(/=+$/, '').length;
  return n % 4 === 1 ? -1 : Math.floor((n * 3) / 4);
}

/** The endpoint a push service gave the browser; its scheme is checked by the server (https only). */
export const PushEndpoint = z.string().superRefine((s, ctx) => {
  // 1 KiB of UTF-8, not 1,024 characters.
  if (new TextEncoder().encode(s).length > 1024) ctx.addIssue({ code: 'custom', message: 'At most 1 KiB.' });
  else if (!URL.canParse(s)) ctx.addIssue({ code: 'custom', message: 'Enter a valid URL.' });
});

/** What `PushSubscription.toJSON()` gives in the browser. */
export const PushSubscriptionBody = z.object({
  endpoint: PushEndpoint,
  keys: z.object({
    /** The browser's P-256 public key: 65 bytes, uncompressed. */
    p256dh: z
      .string()
      .max(100)
      .refine((s) => base64urlBytes(s) === 65, 'Must be a base64url P-256 public key (65 bytes).'),
    /** The 16-byte authentication secret. */
    auth: z
      .string()
      .max(40)
      .refine((s) => base64urlBytes(s) === 16, 'Must be a base64url 16-byte secret.'),
  }),
  userAgent: z.string().trim().max(300).optional(),
});
export type PushSubscriptionBody = z.infer<typeof PushSubscriptionBody>;

export const PushEndpointBody = z.object({ endpoint: PushEndpoint });

/** One of the user's devices that receive pushes. */
export const PushDevice = z.object({
  id: z.number().int(),
  endpoint: z.string(),
  userAgent: z.string(),
  createdAt: z.string(),
});
export type PushDevice = z.infer<typeof PushDevice>;

/** How many devices of one user receive pushes: a new one past it replaces the oldest. */
export const MAX_PUSH_DEVICES = 20;

/** A device just subscribed; `replaced` is the oldest device it pushed out (at most MAX_PUSH_DEVICES). */
export const PushSubscribed = PushDevice.extend({ replaced: PushDevice.optional() });
export type PushSubscribed = z.infer<typeof PushSubscribed>;

/** Which kinds of notification are pushed to the user's devices (the bell shows all of them). */
export const PushPreferences = z.object({ reminders: z.boolean(), marketplace: z.boolean() });
export type PushPreferences = z.infer<typeof PushPreferences>;

export const PushTestResult = z.object({ devices: z.number().int() });

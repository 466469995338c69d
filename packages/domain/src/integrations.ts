import { z } from 'zod';
import { Id } from './user.js';

/** Personal API tokens (issue 53): what a bearer token may do. */
export const API_TOKEN_SCOPES = ['read', 'read-write'] as const;
export const ApiTokenScope = z.enum(API_TOKEN_SCOPES);
export type ApiTokenScope = z.infer<typeof ApiTokenScope>;

/** Every token starts so: a secret scanner (or a person) recognises one in a script or a log. */
export const API_TOKEN_PREFIX = 'evd_';

export const ApiTokenBody = z.object({
  name: z.string().trim().min(1, 'Enter a name.').max(100, 'At most 100 characters.'),
  scope: ApiTokenScope,
  /** When the token stops working (ISO timestamp, in the future); absent or null: never. */
  expiresAt: z.iso
    .datetime({ offset: true, message: 'Use an ISO date and time.' })
    .nullish()
    .refine((v) => !v || Date.parse(v) > Date.now(), 'The expiry must be in the future.'),
});
export type ApiTokenBody = z.infer<typeof ApiTokenBody>;

/** A token as its list shows it (never the token itself). */
export const ApiToken = z.object({
  id: z.number().int(),
  name: z.string(),
  scope: ApiTokenScope,
  /** The token's first characters (`evd_AbCd…`), to tell tokens apart. */
  hint: z.string(),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  lastUsedIp: z.string().nullable(),
  createdAt: z.string(),
});
export type ApiToken = z.infer<typeof ApiToken>;

/** The answer to creating one: the token, shown this once. */
export const ApiTokenCreated = z.object({
  id: z.number().int(),
  name: z.string(),
  scope: ApiTokenScope,
  expiresAt: z.string().nullable(),
  token: z.string(),
});
export type ApiTokenCreated = z.infer<typeof ApiTokenCreated>;

/** What a webhook can be told about. record.* carry the record's `kind`. */
export const WEBHOOK_EVENTS = [
  'record.created',
  'record.updated',
  'record.deleted',
  'reminder.due',
  'renewal.due',
  'listing.interest',
  'message.received',
] as const;
export const WebhookEvent = z.enum(WEBHOOK_EVENTS);
export type WebhookEvent = z.infer<typeof WebhookEvent>;

export const RECORD_KINDS = ['fuel', 'expense', 'insurance', 'revision', 'renewal'] as const;
export const RecordKind = z.enum(RECORD_KINDS);
export type RecordKind = z.infer<typeof RecordKind>;

export const WebhookBody = z.object({
  url: z.string().trim().max(2000, 'At most 2000 characters.').pipe(z.url('Enter a valid URL.')),
  events: z.array(WebhookEvent).min(1, 'Pick at least one event.').max(WEBHOOK_EVENTS.length),
  /** The record kinds record.* events are sent for; absent or null: every kind. */
  kinds: z.array(RecordKind).min(1).max(RECORD_KINDS.length).nullish(),
});
export type WebhookBody = z.infer<typeof WebhookBody>;

/** A change: any of the fields; `paused: false` resumes a paused webhook. */
export const WebhookUpdateBody = WebhookBody.partial().extend({ paused: z.boolean().optional() });
export type WebhookUpdateBody = z.infer<typeof WebhookUpdateBody>;

export const Webhook = z.object({
  id: z.number().int(),
  url: z.string(),
  events: z.array(WebhookEvent),
  kinds: z.array(RecordKind).nullable(),
  /** Paused after failing for 3 days (nothing is sent until resumed). */
  pausedAt: z.string().nullable(),
  failingSince: z.string().nullable(),
  createdAt: z.string(),
});
export type Webhook = z.infer<typeof Webhook>;

/** The answer to creating one: its signing secret, shown this once. */
export const WebhookCreated = Webhook.extend({ secret: z.string() });
export type WebhookCreated = z.infer<typeof WebhookCreated>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export const WebhookDelivery = z.object({
  id: z.number().int(),
  /** The idempotency id, sent as X-Evdra-Delivery and as the body's `id`. */
  eventId: z.string(),
  event: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  /** The receiver's last HTTP status; null when it was not reached. */
  responseStatus: z.number().int().nullable(),
  error: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  createdAt: z.string(),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveryParams = z.object({ id: Id, deliveryId: Id });

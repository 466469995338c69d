import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Currency } from '@evdra/domain';
import { z } from 'zod';

/** The ECB's 90-day history (it also holds the latest day): a server started after a pause fills the gap. */
export const DEFAULT_FX_RATES_URL = 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist-90d.xml';

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().url().optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\/./, 'REDIS_URL must be redis://… or rediss://…')
    .optional(),
  PUBLIC_URL: z.string().url().optional(),
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().default('Evdra <no-reply@evdra.local>'),
  JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: bool.default(false),
  AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(100),
  LOGIN_FAILURES_PER_15_MIN: z.coerce.number().int().positive().default(5),
  WEB_DIST: z.string().optional(),
  AI_BASE_URL: z.string().url().optional(),
  AI_API_KEY: z.string().optional(),
  AI_MODEL: z.string().min(1).default('gpt-4o-mini'),
  AI_TIMEOUT_MS: z.coerce.number().int().positive().default(20_000),
  /** Web Push: without them the server makes a key pair at first start and keeps it in the database. */
  VAPID_PUBLIC_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{80,100}$/, 'VAPID_PUBLIC_KEY must be base64url')
    .optional(),
  VAPID_PRIVATE_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{40,50}$/, 'VAPID_PRIVATE_KEY must be base64url')
    .optional(),
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:|https:\/\/)./, 'VAPID_SUBJECT must be a mailto: or https:// URL')
    .optional(),
  /**
   * Tests only: requests to user-supplied URLs (push endpoints) may use plain http and reach
   * loopback addresses (never private or other inside addresses).
   */
  OUTBOUND_ALLOW_LOCAL: bool.default(false),
  /** The former name of OUTBOUND_ALLOW_LOCAL, still honoured: either one turns it on. */
  PUSH_ALLOW_LOCAL: bool.default(false),
  /** How often each process sends the push outbox; 0 turns the timer off (tests drain it themselves). */
  PUSH_POLL_MS: z.coerce.number().int().min(0).default(5_000),
  /** Receipt OCR: PaddleOCR (ONNX Runtime) reads photos best; tesseract is the former engine. */
  OCR_ENGINE: z.enum(['paddle', 'tesseract']).default('paddle'),
  /**
   * PaddleOCR reads no € or £: a photo's row with the amount paid is read again by tesseract when no
   * currency was read; a preview waits for that at most this long (ms). 0 turns the re-read off.
   */
  OCR_CURRENCY_REREAD_MS: z.coerce.number().int().min(0).max(60_000).default(2_500),
  /**
   * The ECB's euro reference rates in its XML format, fetched at start and daily. Unlike the others,
   * an empty value is not "unset": it turns the fetch off (loadConfig reads it before the filter).
   */
  FX_RATES_URL: z
    .string()
    .regex(/^https?:\/\/[^\s/?#]+\S*$/i, 'FX_RATES_URL must be an http:// or https:// URL')
    .default(DEFAULT_FX_RATES_URL),
  /** The instance's currency: the admin's global analytics default to it. */
  CURRENCY: Currency.default('EUR'),
  /** Personal API tokens (issue 53): false turns them off (their routes 404, a bearer token 401). */
  PUBLIC_API_TOKENS: bool.default(true),
  /** Requests per minute one API token may make. */
  API_TOKEN_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(600),
  /** How often each process sends the webhook outbox; 0 turns the timer off (tests drain it themselves). */
  WEBHOOK_POLL_MS: z.coerce.number().int().min(0).default(5_000),
  /** Each user's storage for vehicle documents (issue 52), in MB: past it, an upload gets 413. */
  DOCUMENT_QUOTA_MB: z.coerce.number().positive().default(500),
  /** Sign in with OpenID Connect (issue 53): on when OIDC_ISSUER and OIDC_CLIENT_ID are set. */
  OIDC_ISSUER: z
    .string()
    .regex(/^https?:\/\/[^\s/?#]+\S*$/i, 'OIDC_ISSUER must be an http:// or https:// URL')
    .optional(),
  OIDC_CLIENT_ID: z.string().optional(),
  /** Empty: a public client (PKCE alone). */
  OIDC_CLIENT_SECRET: z.string().optional(),
  OIDC_SCOPES: z.string().default('openid email profile'),
  OIDC_BUTTON_TEXT: z.string().max(60).default('OpenID Connect'),
  OIDC_AUTO_REGISTER: bool.default(false),
  OIDC_ADMIN_GROUP: z.string().optional(),
  OIDC_GROUPS_CLAIM: z.string().default('groups'),
  /** Logging out of Evdra also ends the provider's session (its end_session_endpoint). */
  OIDC_END_SESSION: bool.default(false),
  /** false: no password login or registration (OpenID Connect only). */
  PASSWORD_LOGIN: bool.default(true),
});

/** Every variable the server reads (`.env.example` lists each one; a test keeps them in step). */
export const ENV_VARIABLES = Object.keys(EnvSchema.shape) as (keyof typeof EnvSchema.shape)[];

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  /** Shared rate-limit counters for several replicas. */
  redisUrl?: string;
  publicUrl: string;
  smtpUrl?: string;
  mailFrom: string;
  jwtSecret: string;
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  trustProxy: boolean;
  secureCookies: boolean;
  authRateLimitPerMinute: number;
  loginFailuresPer15Min: number;
  /** Folder of the built web app; the server serves it when it exists. */
  webDist?: string;
  /** OpenAI-compatible LLM; without it the built-in provider answers. */
  ai?: { baseUrl: string; apiKey: string; model: string; timeoutMs: number };
  push: {
    /** Both or neither (then the database's pair is used). */
    vapidKeys?: { publicKey: string; privateKey: string };
    /** Who the push services contact about this server. */
    subject: string;
    pollMs: number;
  };
  /** The guard every request to a user-supplied URL goes through. */
  outbound: {
    /** Tests only: plain http and loopback addresses allowed. */
    allowLocal: boolean;
  };
  ocrEngine: 'paddle' | 'tesseract';
  /** How long a preview waits for the currency re-read at most (ms); 0: never read again. */
  ocrCurrencyRereadMs: number;
  /** Where the daily ECB reference rates come from; undefined: not fetched (FX_RATES_URL set empty). */
  fxRatesUrl?: string;
  /** The instance's currency (ISO 4217). */
  currency: Currency;
  /** Personal API tokens: whether they are on, and each one's requests per minute. */
  apiTokens: { enabled: boolean; perMinute: number };
  webhooks: { pollMs: number };
  /** Each user's storage for vehicle documents, in bytes (DOCUMENT_QUOTA_MB). */
  documentQuotaBytes: number;
  /** Sign in with OpenID Connect; undefined: not configured. */
  oidc?: OidcConfig;
  /** Password login and registration (PASSWORD_LOGIN, default true). */
  passwordLogin: boolean;
};

export type OidcConfig = {
  issuer: string;
  clientId: string;
  /** Undefined: a public client. */
  clientSecret?: string;
  scopes: string;
  buttonText: string;
  autoRegister: boolean;
  adminGroup?: string;
  groupsClaim: string;
  endSession: boolean;
};

export class ConfigError extends Error {}

/**
 * The only place that reads process.env; refuses to boot on bad config. An empty (or blank) value
 * means "not set", as a `.env` or compose template listing every variable writes `AI_BASE_URL=`:
 * the default applies. Only a non-empty bad value stops the server, with a message naming it.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const set = Object.fromEntries(
    ENV_VARIABLES.flatMap((name) => {
      const value = env[name];
      return value === undefined || value.trim() === '' ? [] : [[name, value]];
    }),
  );
  const parsed = EnvSchema.safeParse(set);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (!e.OIDC_ISSUER !== !e.OIDC_CLIENT_ID) {
    throw new ConfigError('Invalid configuration:\n  OIDC_ISSUER and OIDC_CLIENT_ID go together');
  }
  if (!e.PASSWORD_LOGIN && !e.OIDC_ISSUER) {
    throw new ConfigError(
      'Invalid configuration:\n  PASSWORD_LOGIN=false needs OIDC_ISSUER (else nobody can sign in)',
    );
  }
  if (!e.VAPID_PUBLIC_KEY !== !e.VAPID_PRIVATE_KEY) {
    throw new ConfigError('Invalid configuration:\n  VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together');
  }
  const dataDir = resolve(e.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    publicUrl,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    jwtSecret: e.JWT_SECRET ?? persistentSecret(dataDir),
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    secureCookies: publicUrl.startsWith('https://'),
    authRateLimitPerMinute: e.AUTH_RATE_LIMIT_PER_MINUTE,
    loginFailuresPer15Min: e.LOGIN_FAILURES_PER_15_MIN,
    webDist: e.WEB_DIST ? resolve(e.WEB_DIST) : undefined,
    ai: e.AI_BASE_URL
      ? {
          baseUrl: e.AI_BASE_URL,
          // Local servers (Ollama, llama.cpp) need no key, but the client wants a string.
          apiKey: e.AI_API_KEY || 'none',
          model: e.AI_MODEL,
          timeoutMs: e.AI_TIMEOUT_MS,
        }
      : undefined,
    push: {
      vapidKeys:
        e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY
          ? { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY }
          : undefined,
      subject: e.VAPID_SUBJECT ?? defaultSubject(publicUrl, e.MAIL_FROM),
      pollMs: e.PUSH_POLL_MS,
    },
    outbound: { allowLocal: e.OUTBOUND_ALLOW_LOCAL || e.PUSH_ALLOW_LOCAL },
    ocrEngine: e.OCR_ENGINE,
    ocrCurrencyRereadMs: e.OCR_CURRENCY_REREAD_MS,
    fxRatesUrl: env.FX_RATES_URL !== undefined && env.FX_RATES_URL.trim() === '' ? undefined : e.FX_RATES_URL,
    currency: e.CURRENCY,
    apiTokens: { enabled: e.PUBLIC_API_TOKENS, perMinute: e.API_TOKEN_RATE_LIMIT_PER_MINUTE },
    webhooks: { pollMs: e.WEBHOOK_POLL_MS },
    documentQuotaBytes: Math.round(e.DOCUMENT_QUOTA_MB * 1024 * 1024),
    oidc:
      e.OIDC_ISSUER && e.OIDC_CLIENT_ID
        ? {
            issuer: e.OIDC_ISSUER,
            clientId: e.OIDC_CLIENT_ID,
            clientSecret: e.OIDC_CLIENT_SECRET,
            scopes: e.OIDC_SCOPES,
            buttonText: e.OIDC_BUTTON_TEXT,
            autoRegister: e.OIDC_AUTO_REGISTER,
            adminGroup: e.OIDC_ADMIN_GROUP,
            groupsClaim: e.OIDC_GROUPS_CLAIM,
            endSession: e.OIDC_END_SESSION,
          }
        : undefined,
    passwordLogin: e.PASSWORD_LOGIN,
  };
}

/** The public https URL, else the mail sender's address (push services want a way to reach the admin). */
function defaultSubject(publicUrl: string, mailFrom: string): string {
  if (publicUrl.startsWith('https://')) return publicUrl;
  const address = /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom;
  return `mailto:${address.includes('@') ? address.trim() : 'no-reply@evdra.local'}`;
}

/** Without JWT_SECRET, generate one once and keep it in DATA_DIR so restarts keep sessions. */
function persistentSecret(dataDir: string): string {
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

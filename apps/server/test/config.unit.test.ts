import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseEnv } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { type Config, ConfigError, ENV_VARIABLES, loadConfig } from '../src/config.js';

/*
 * Every variable: empty (as a `.env` or compose template listing them all writes it) means "not
 * set", so the default applies; a bad non-empty value stops the server with a message naming it.
 */
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'evdra-config-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

type Case = {
  /** What the config holds when the variable is empty. */
  empty: (c: Config, dataDir: string) => void;
  /** Non-empty values that stop the server (none: any text is accepted). */
  bad: string[];
  /** Other variables the case needs (AI_API_KEY means something only with AI_BASE_URL). */
  with?: Record<string, string>;
};

const OIDC = { OIDC_ISSUER: 'https://auth.example.com/application/o/evdra/', OIDC_CLIENT_ID: 'evdra' };

const CASES: Record<(typeof ENV_VARIABLES)[number], Case> = {
  PORT: { empty: (c) => expect(c.port).toBe(8080), bad: ['abc', '70000', '80.5'] },
  HOST: { empty: (c) => expect(c.host).toBe('0.0.0.0'), bad: [] },
  DATA_DIR: { empty: () => {}, bad: [] }, // its own test below: the default is relative to the working directory
  DATABASE_URL: { empty: (c) => expect(c.databaseUrl).toBeUndefined(), bad: ['not a url'] },
  REDIS_URL: {
    empty: (c) => expect(c.redisUrl).toBeUndefined(),
    bad: ['localhost:6379', 'http://redis:6379'],
  },
  PUBLIC_URL: { empty: (c) => expect(c.publicUrl).toBe('http://localhost:8080'), bad: ['evdra.example.com'] },
  SMTP_URL: { empty: (c) => expect(c.smtpUrl).toBeUndefined(), bad: ['not a url'] },
  MAIL_FROM: { empty: (c) => expect(c.mailFrom).toBe('Evdra <no-reply@evdra.local>'), bad: [] },
  JWT_SECRET: {
    empty: (c, dir) => {
      expect(c.jwtSecret.length).toBeGreaterThanOrEqual(32);
      expect(readFileSync(join(dir, 'jwt-secret'), 'utf8').trim()).toBe(c.jwtSecret);
    },
    bad: ['short'],
  },
  LOG_LEVEL: { empty: (c) => expect(c.logLevel).toBe('info'), bad: ['loud'] },
  TRUST_PROXY: { empty: (c) => expect(c.trustProxy).toBe(false), bad: ['yes'] },
  AUTH_RATE_LIMIT_PER_MINUTE: {
    empty: (c) => expect(c.authRateLimitPerMinute).toBe(100),
    bad: ['0', 'many'],
  },
  LOGIN_FAILURES_PER_15_MIN: { empty: (c) => expect(c.loginFailuresPer15Min).toBe(5), bad: ['-1', 'x'] },
  WEB_DIST: { empty: (c) => expect(c.webDist).toBeUndefined(), bad: [] },
  AI_BASE_URL: { empty: (c) => expect(c.ai).toBeUndefined(), bad: ['not a url'] },
  AI_API_KEY: {
    empty: (c) => expect(c.ai?.apiKey).toBe('none'),
    bad: [],
    with: { AI_BASE_URL: 'http://127.0.0.1:11434/v1' },
  },
  AI_MODEL: {
    empty: (c) => expect(c.ai?.model).toBe('gpt-4o-mini'),
    bad: [],
    with: { AI_BASE_URL: 'http://127.0.0.1:11434/v1' },
  },
  AI_TIMEOUT_MS: {
    empty: (c) => expect(c.ai?.timeoutMs).toBe(20_000),
    bad: ['-5', 'soon'],
    with: { AI_BASE_URL: 'http://127.0.0.1:11434/v1' },
  },
  VAPID_PUBLIC_KEY: {
    empty: (c) => expect(c.push.vapidKeys).toBeUndefined(),
    bad: ['not base64url!'],
  },
  VAPID_PRIVATE_KEY: {
    empty: (c) => expect(c.push.vapidKeys).toBeUndefined(),
    bad: ['short'],
  },
  VAPID_SUBJECT: { empty: (c) => expect(c.push.subject).toMatch(/^mailto:/), bad: ['admin@example.com'] },
  OUTBOUND_ALLOW_LOCAL: { empty: (c) => expect(c.outbound.allowLocal).toBe(false), bad: ['yes'] },
  PUSH_ALLOW_LOCAL: { empty: (c) => expect(c.outbound.allowLocal).toBe(false), bad: ['yes'] },
  PUSH_POLL_MS: { empty: (c) => expect(c.push.pollMs).toBe(5_000), bad: ['-1', 'often'] },
  OCR_ENGINE: { empty: (c) => expect(c.ocrEngine).toBe('paddle'), bad: ['easyocr'] },
  OCR_CURRENCY_REREAD_MS: {
    empty: (c) => expect(c.ocrCurrencyRereadMs).toBe(2_500),
    bad: ['-1', 'soon', '600000'],
  },
  // Empty is the one exception to "empty means not set": it turns the ECB fetch off (issue 50).
  FX_RATES_URL: {
    empty: (c) => expect(c.fxRatesUrl).toBeUndefined(),
    bad: ['www.ecb.europa.eu/x.xml', 'ftp://example.com/rates.xml', 'file:///etc/passwd'],
  },
  CURRENCY: { empty: (c) => expect(c.currency).toBe('EUR'), bad: ['XYZ', 'eur', 'EURO'] },
  // Personal API tokens and webhooks (issue 53).
  PUBLIC_API_TOKENS: { empty: (c) => expect(c.apiTokens.enabled).toBe(true), bad: ['off'] },
  API_TOKEN_RATE_LIMIT_PER_MINUTE: {
    empty: (c) => expect(c.apiTokens.perMinute).toBe(600),
    bad: ['0', 'many'],
  },
  WEBHOOK_POLL_MS: { empty: (c) => expect(c.webhooks.pollMs).toBe(5_000), bad: ['-1', 'often'] },
  // Vehicle documents (issue 52): each user's storage, in MB.
  DOCUMENT_QUOTA_MB: {
    empty: (c) => expect(c.documentQuotaBytes).toBe(500 * 1024 * 1024),
    bad: ['0', '-5', 'lots'],
  },
  // Sign in with OpenID Connect (issue 53): the rest mean something only with an issuer.
  OIDC_ISSUER: { empty: (c) => expect(c.oidc).toBeUndefined(), bad: ['auth.example.com', 'ftp://x/'] },
  OIDC_CLIENT_ID: { empty: (c) => expect(c.oidc).toBeUndefined(), bad: [] },
  OIDC_CLIENT_SECRET: { empty: (c) => expect(c.oidc?.clientSecret).toBeUndefined(), bad: [], with: OIDC },
  OIDC_SCOPES: { empty: (c) => expect(c.oidc?.scopes).toBe('openid email profile'), bad: [], with: OIDC },
  OIDC_BUTTON_TEXT: {
    empty: (c) => expect(c.oidc?.buttonText).toBe('OpenID Connect'),
    bad: ['x'.repeat(61)],
    with: OIDC,
  },
  OIDC_AUTO_REGISTER: { empty: (c) => expect(c.oidc?.autoRegister).toBe(false), bad: ['yes'], with: OIDC },
  OIDC_ADMIN_GROUP: { empty: (c) => expect(c.oidc?.adminGroup).toBeUndefined(), bad: [], with: OIDC },
  OIDC_GROUPS_CLAIM: { empty: (c) => expect(c.oidc?.groupsClaim).toBe('groups'), bad: [], with: OIDC },
  OIDC_END_SESSION: { empty: (c) => expect(c.oidc?.endSession).toBe(false), bad: ['yes'], with: OIDC },
  PASSWORD_LOGIN: { empty: (c) => expect(c.passwordLogin).toBe(true), bad: ['no'], with: OIDC },
};

describe('loadConfig', () => {
  it('has a case for every variable it reads', () => {
    expect(Object.keys(CASES).sort()).toEqual([...ENV_VARIABLES].sort());
  });

  for (const name of ENV_VARIABLES) {
    const c = CASES[name];
    it(`${name}: empty or blank means not set${c.bad.length ? '; a bad value stops it, naming the variable' : ''}`, () => {
      for (const empty of ['', '   ']) {
        const dir = tempDir();
        c.empty(loadConfig({ DATA_DIR: dir, ...c.with, [name]: empty }), dir);
      }
      for (const bad of c.bad) {
        const load = () => loadConfig({ DATA_DIR: tempDir(), ...c.with, [name]: bad });
        expect(load).toThrow(ConfigError);
        expect(load).toThrow(new RegExp(`^Invalid configuration:\\n {2}${name}: `));
      }
    });
  }

  it('OIDC_ISSUER and OIDC_CLIENT_ID go together; PASSWORD_LOGIN=false needs an issuer', () => {
    expect(() => loadConfig({ DATA_DIR: tempDir(), OIDC_ISSUER: OIDC.OIDC_ISSUER })).toThrow(
      /OIDC_ISSUER and OIDC_CLIENT_ID go together/,
    );
    expect(() => loadConfig({ DATA_DIR: tempDir(), PASSWORD_LOGIN: 'false' })).toThrow(
      /PASSWORD_LOGIN=false needs OIDC_ISSUER/,
    );
    const c = loadConfig({ DATA_DIR: tempDir(), ...OIDC, PASSWORD_LOGIN: 'false', OIDC_CLIENT_SECRET: 's' });
    expect(c.passwordLogin).toBe(false);
    expect(c.oidc).toMatchObject({ issuer: OIDC.OIDC_ISSUER, clientId: 'evdra', clientSecret: 's' });
  });

  it('VAPID keys: one without the other stops the server; both are used as given', () => {
    const keys = { VAPID_PUBLIC_KEY: 'B'.repeat(87), VAPID_PRIVATE_KEY: 'a'.repeat(43) };
    expect(() => loadConfig({ DATA_DIR: tempDir(), VAPID_PUBLIC_KEY: keys.VAPID_PUBLIC_KEY })).toThrow(
      /VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together/,
    );
    expect(loadConfig({ DATA_DIR: tempDir(), ...keys }).push.vapidKeys).toEqual({
      publicKey: keys.VAPID_PUBLIC_KEY,
      privateKey: keys.VAPID_PRIVATE_KEY,
    });
  });

  it('OUTBOUND_ALLOW_LOCAL: on with either name (PUSH_ALLOW_LOCAL is its former one), off by default', () => {
    const allowLocal = (env: Record<string, string>) =>
      loadConfig({ DATA_DIR: tempDir(), ...env }).outbound.allowLocal;
    expect(allowLocal({})).toBe(false);
    expect(allowLocal({ OUTBOUND_ALLOW_LOCAL: 'true' })).toBe(true);
    expect(allowLocal({ PUSH_ALLOW_LOCAL: '1' })).toBe(true);
    expect(allowLocal({ OUTBOUND_ALLOW_LOCAL: 'false', PUSH_ALLOW_LOCAL: 'false' })).toBe(false);
  });

  it('FX_RATES_URL: the ECB’s 90-day file when unset, any http(s) URL when given, off when empty', () => {
    const url = (env: Record<string, string>) => loadConfig({ DATA_DIR: tempDir(), ...env }).fxRatesUrl;
    expect(url({})).toBe('https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist-90d.xml');
    expect(url({ FX_RATES_URL: 'http://127.0.0.1:8099/eurofxref-daily.xml' })).toBe(
      'http://127.0.0.1:8099/eurofxref-daily.xml',
    );
    expect(url({ FX_RATES_URL: '' })).toBeUndefined();
    expect(loadConfig({ DATA_DIR: tempDir(), CURRENCY: 'RON' }).currency).toBe('RON');
  });

  it('DATA_DIR: empty means ./data in the working directory', () => {
    const cwd = process.cwd();
    const dir = tempDir();
    process.chdir(dir);
    try {
      expect(loadConfig({ DATA_DIR: '' }).dataDir).toBe(resolve(dir, 'data'));
    } finally {
      process.chdir(cwd);
    }
  });

  it('names every bad variable at once, and ignores the empty ones', () => {
    const load = () =>
      loadConfig({ DATA_DIR: tempDir(), PORT: 'x', AI_BASE_URL: '', SMTP_URL: 'nope', REDIS_URL: '' });
    expect(load).toThrow(/PORT: [^\n]+\n {2}SMTP_URL: /);
    expect(load).not.toThrow(/AI_BASE_URL|REDIS_URL/);
  });
});

describe('.env.example', () => {
  const text = readFileSync(new URL('../../../.env.example', import.meta.url), 'utf8');

  it('lists every variable once, each under a one-line comment', () => {
    const lines = text.split('\n');
    for (const name of ENV_VARIABLES) {
      const at = lines.findIndex((l) => l.startsWith(`${name}=`));
      expect(at, name).toBeGreaterThan(0);
      expect(lines[at - 1], name).toMatch(/^# \S/);
    }
    expect(Object.keys(parseEnv(text)).sort()).toEqual([...ENV_VARIABLES].sort());
  });

  it('as a .env, starts the server with the defaults', () => {
    const dir = tempDir();
    const fromExample = loadConfig({ ...parseEnv(text), DATA_DIR: dir });
    expect(fromExample).toEqual(loadConfig({ DATA_DIR: dir }));
  });
});

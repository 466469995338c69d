// A schema-aware HTTP fuzzer driven by /api/openapi.json: every operation gets bad input of every
// class (wrong types, boundary and huge numbers, NaN, 1 MB strings, NUL bytes and odd Unicode, bad
// dates, deep JSON, arrays for objects, wrong content types, malformed JSON and multipart, extra
// fields, foreign and non-existent ids), sent by a logged-in user with a valid CSRF token. It
// counts answers by status class and keeps every 5xx and hang with a reproduction. A BOLA matrix,
// also generated from the document, checks that every id-taking operation refuses a second user.
// Nothing here names a route: operations other modules add are covered when they appear.

export type FuzzRequest = {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Buffer;
};
export type FuzzResponse = {
  status: number;
  body: string;
  headers: Record<string, string | string[] | number | undefined>;
};
/**
 * Sends one request; never settles when the server does not answer, and rejects when the connection
 * ends without an answer (an error with the socket's `code`: ECONNRESET, EPIPE, ECONNREFUSED).
 */
export type Transport = (req: FuzzRequest) => Promise<FuzzResponse>;

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
  exclusiveMaximum?: boolean | number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  default?: unknown;
  nullable?: boolean;
};
type Param = { in: 'path' | 'query' | 'header' | 'cookie'; name: string; required?: boolean; schema: Schema };
export type Operation = {
  method: string;
  path: string;
  params: Param[];
  body?: Schema;
  /** The description names a multipart file part: `file part \`name\``. */
  filePart?: string;
  multipart: boolean;
};

export type Failure = {
  /** `closed`: the connection ended without an answer (`body` says how). */
  kind: '5xx' | 'hang' | 'closed';
  mutation: string;
  request: FuzzRequest;
  status?: number;
  body?: string;
};
export type BolaRow = { operation: string; status: number; ok: boolean; skipped?: boolean; why?: string };
export type FuzzReport = {
  seed: number;
  operations: number;
  requests: number;
  byClass: Record<string, number>;
  byMutation: Record<string, number>;
  failures: Failure[];
  bola: BolaRow[];
  millis: number;
  /** Why the fuzz stopped before `requests` (the server stopped answering); undefined when it ran them all. */
  stopped?: string;
};

/** The server's JSON body limit (app.ts `bodyLimit`). */
export const SERVER_BODY_LIMIT = 1024 * 1024;

/**
 * What a connection that ended without an answer means. A server may refuse a body over its limit
 * by answering 413 and closing before it has read the rest (app.ts does): the client, still
 * writing, then sees EPIPE or ECONNRESET instead of the 413, a refusal as good as the 413 itself.
 * The same on a request within the limit is a dropped request: a failure. A refused connection
 * means the server is gone: the run stops there.
 */
export function closedConnectionVerdict(
  code: string | undefined,
  bodyBytes: number,
  bodyLimit = SERVER_BODY_LIMIT,
): 'refused' | 'failure' | 'server gone' {
  if (code === 'ECONNREFUSED') return 'server gone';
  if ((code === 'EPIPE' || code === 'ECONNRESET') && bodyBytes > bodyLimit) return 'refused';
  return 'failure';
}

/** Exit code of a command-line run: 1 when the report has a real failure, 0 when it has none. */
export function exitCodeOf(r: FuzzReport): 0 | 1 {
  return r.failures.length > 0 || r.bola.some((b) => !b.ok) || r.stopped !== undefined ? 1 : 0;
}

// ── a small seeded PRNG, so a run can be repeated exactly ──
function prng(seed: number) {
  let s = seed >>> 0 || 1;
  const next = () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 0x100000000;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T,
    chance: (p: number) => next() < p,
  };
}
type Rng = ReturnType<typeof prng>;

export function operationsOf(doc: { paths: Record<string, Record<string, unknown>> }): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, raw] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const op = raw as {
        parameters?: Param[];
        requestBody?: { content?: Record<string, { schema?: Schema }> };
        description?: string;
      };
      const content = op.requestBody?.content ?? {};
      const filePart = /file parts? `([A-Za-z0-9_]+)`/.exec(op.description ?? '')?.[1];
      ops.push({
        method: method.toUpperCase(),
        path,
        params: op.parameters ?? [],
        body: content['application/json']?.schema,
        filePart,
        multipart: !!content['multipart/form-data'] || /multipart/i.test(op.description ?? ''),
      });
    }
  }
  return ops;
}

// ── valid values from schemas ──

/** Ids known per collection (the path before `/{id}`), for valid, own and foreign references. */
type Pools = Map<string, (number | string)[]>;
const collectionOf = (path: string) => path.replace(/\/\{[^}]+\}.*$/, '');
/** Which collection a parameter or field named like `vehicleId` (or `id` under a path) refers to. */
function collectionFor(name: string, path: string, pools: Pools): string | undefined {
  if (name === 'id') return collectionOf(path);
  const m = /^(.*)Id$/.exec(name);
  if (!m?.[1]) return undefined;
  const noun = m[1].replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  const keys = [...pools.keys()];
  return (
    keys.find((k) => k.endsWith(`/${noun}s`)) ??
    // delivery → deliveries
    keys.find((k) => k.endsWith(`/${noun.replace(/y$/, 'ie')}s`)) ??
    keys.find((k) => k.endsWith(`/${noun}`)) ??
    keys.find((k) => k.includes(noun))
  );
}

function flatten(s: Schema | undefined): Schema {
  if (!s) return {};
  const alt = s.anyOf ?? s.oneOf;
  if (alt) return flatten(alt.find((a) => a.type !== 'null') ?? alt[0]);
  if (s.allOf) return flatten(Object.assign({}, ...s.allOf));
  return s;
}
const allowsNull = (s: Schema) =>
  s.nullable === true ||
  (Array.isArray(s.type) && s.type.includes('null')) ||
  !!(s.anyOf ?? s.oneOf)?.some((a) => a.type === 'null');
const typeOf = (s: Schema) => (Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type);

function validString(s: Schema, name: string, rng: Rng): string {
  const lower = name.toLowerCase();
  if (s.format === 'email' || lower.includes('email')) return `fz${rng.int(1e9)}@example.com`;
  if (s.format === 'date-time') return '2025-06-15T10:00:00.000Z';
  if (s.format === 'uuid') return '2b1f0a3c-0000-4000-8000-000000000001';
  if (s.pattern?.includes('\\d{4}-(0[1-9]')) return lower.startsWith('end') ? '2025-12' : '2025-01';
  if (s.pattern?.includes('\\d{4}-\\d{2}-\\d{2}') || s.format === 'date' || lower.endsWith('date'))
    return lower.startsWith('end') ? '2025-12-31' : lower.startsWith('start') ? '2025-01-01' : '2025-03-15';
  if (lower.includes('password')) return 'correct horse 1';
  if (lower === 'username') return `fz_${rng.int(1e9)}`;
  if (lower.includes('registration')) return `FZ-${rng.int(1e6)}`;
  // A VIN's rule (17 characters, no I, O or Q) is a refinement the fuzz cannot read from the schema.
  if (lower === 'vin') return '1HGCM82633A004352';
  const min = s.minLength ?? 1;
  const max = Math.max(min, Math.min(s.maxLength ?? 12, 12));
  return 'fuzzvalue'.padEnd(max, 'x').slice(0, Math.max(min, Math.min(max, 9)));
}

function validNumber(s: Schema, integer: boolean, name: string): number {
  const exMin = s.exclusiveMinimum === true || typeof s.exclusiveMinimum === 'number';
  let lo = typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum : (s.minimum ?? 0);
  if (exMin) lo += integer ? 1 : 0.5;
  const hi = s.maximum ?? lo + 1000;
  const lower = name.toLowerCase();
  const guess =
    lower === 'year'
      ? 2018
      : lower.includes('engine')
        ? 1.6
        : integer
          ? Math.max(lo, 10)
          : Math.max(lo, 12.5);
  return Math.min(hi, Math.max(lo, guess));
}

export function validValue(
  schema: Schema | undefined,
  name: string,
  path: string,
  pools: Pools,
  rng: Rng,
): unknown {
  const s = flatten(schema);
  if (s.const !== undefined) return s.const;
  if (s.enum) return s.enum[0];
  const ref = collectionFor(name, path, pools);
  if (ref && name !== 'id' && pools.get(ref)?.length) return rng.pick(pools.get(ref) as (number | string)[]);
  switch (typeOf(s)) {
    case 'string':
      return validString(s, name, rng);
    case 'integer':
      return validNumber(s, true, name);
    case 'number':
      return validNumber(s, false, name);
    case 'boolean':
      return s.default ?? true;
    case 'array':
      return [];
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(s.properties ?? {})) {
        // An optional field that may be null is left out: a value of its own may break a rule between
        // fields the schema cannot say (a second fuel must pair with the first, issue 51).
        if (s.required?.includes(k) || (!allowsNull(v) && rng.chance(0.7)))
          out[k] = validValue(v, k, path, pools, rng);
      }
      return out;
    }
    default:
      return s.default ?? null;
  }
}

// ── bad values ──

const MB_STRING = 'A'.repeat(1024 * 1024 - 64);
const ODD_UNICODE = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff\ud800',
  '\u202eevil\u202c',
  '\u200b\u200d\ufeff',
  'Z͑ͫ̓ͪ̂ͫ̽͏̴̙̤̞͉͚̯̞̠͍',
  '🚗💨'.repeat(50),
  '\uffff\ufffe',
  "' or 1=1 --",
  '%00%0d%0a',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  '#{7*7}{{7*7}}<%= 7*7 %>',
];
const BAD_NUMBERS = [
  -1,
  0,
  2147483647,
  2147483648,
  -2147483649,
  9007199254740991,
  2 ** 53 + 2,
  1e308,
  -1e308,
  5e-324,
  0.1 + 0.2,
  1.5,
];
const BAD_DATES = [
  '2025-02-30',
  '2025-13-01',
  '0000-00-00',
  '2025-00-10',
  '99999-01-01',
  '2025-1-1',
  '1970-01-01T25:61:00Z',
  '-001-01-01',
];
const WRONG_TYPES: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  '',
  'text',
  [],
  [1, 2],
  {},
  { a: 1 },
  '1',
  'true',
  'null',
];

function badScalar(s: Schema, rng: Rng): unknown {
  const t = typeOf(flatten(s));
  const roll = rng.int(5);
  if (roll === 0) return rng.pick(WRONG_TYPES);
  if (t === 'integer' || t === 'number') return rng.pick(BAD_NUMBERS);
  if (t === 'string') {
    if (roll === 1) return rng.pick(BAD_DATES);
    if (roll === 2) return rng.chance(0.2) ? MB_STRING : 'x'.repeat(1 + rng.int(5000));
    return rng.pick(ODD_UNICODE);
  }
  return rng.pick(WRONG_TYPES);
}

/** A path or query value that is not what the schema wants, as raw text. */
function badParamText(s: Schema, rng: Rng, foreign: () => string | undefined): string {
  const options = [
    () => foreign() ?? '999999',
    () => '999999999',
    () => '2147483648',
    () => '9223372036854775808',
    () => '-1',
    () => '0',
    () => '1.5',
    () => '1e3',
    () => 'NaN',
    () => 'Infinity',
    () => 'abc',
    () => '%00',
    () => '%F0%9F%9A%97',
    () => '%ED%A0%80',
    () => pct(rng.pick(ODD_UNICODE)),
    () => rng.pick(BAD_DATES),
    () => 'x'.repeat(rng.pick([65, 101, 1000, 8000])),
    () => '',
    () => '%',
    () => '..%2f..%2f',
  ];
  void s;
  return rng.pick(options)();
}

/** Percent-encodes every UTF-8 byte (lone surrogates become U+FFFD, as a browser would send). */
const pct = (s: string) => [...Buffer.from(s)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');

function deepJson(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}`;
}

// ── the run ──

type Session = { cookies: Map<string, string>; csrf?: string };
type Client = {
  session: Session;
  send(req: FuzzRequest): Promise<FuzzResponse>;
  json(method: string, url: string, body?: unknown): Promise<FuzzResponse & { data?: unknown }>;
};

function clientFor(transport: Transport, timeoutMs: number): Client {
  const session: Session = { cookies: new Map() };
  const send = async (req: FuzzRequest) => {
    const headers = { ...req.headers };
    if (session.cookies.size && !headers.cookie)
      headers.cookie = [...session.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (session.csrf && req.method !== 'GET' && !('x-csrf-token' in headers))
      headers['x-csrf-token'] = session.csrf;
    let timer: NodeJS.Timeout | undefined;
    const res = await Promise.race([
      transport({ ...req, headers }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new HangError()), timeoutMs);
      }),
    ]).finally(() => clearTimeout(timer));
    const set = res.headers['set-cookie'];
    for (const c of Array.isArray(set) ? set : set ? [String(set)] : []) {
      const [pair = ''] = c.split(';');
      const i = pair.indexOf('=');
      const name = pair.slice(0, i).trim();
      const value = pair.slice(i + 1).trim();
      if (!value || /max-age=0|expires=thu, 01 jan 1970/i.test(c)) session.cookies.delete(name);
      else session.cookies.set(name, value);
    }
    return res;
  };
  return {
    session,
    send,
    async json(method, url, body) {
      const res = await send({
        method,
        url,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      let data: unknown;
      try {
        data = JSON.parse(res.body);
      } catch {}
      const csrf = (data as { csrfToken?: string } | undefined)?.csrfToken;
      if (csrf) session.csrf = csrf;
      return { ...res, data };
    },
  };
}

class HangError extends Error {}

/** A tiny valid PNG (1×1), for operations that take a file part. */
const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * The JSON parts an upload takes beside its file (the OpenAPI document describes a multipart body in
 * words only): what a valid one sends, so the upload makes an id of the user's for the matrix.
 */
const TEXT_PARTS: Record<string, Record<string, unknown>> = {
  'POST /api/vehicles/{id}/documents': { data: { type: 'OTHER', title: 'Papers' } },
};

function multipartBody(
  parts: { name: string; value?: string; file?: Buffer }[],
  boundary = `----fz${Date.now()}`,
) {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if (p.file) {
      chunks.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${p.name}"; filename="x.png"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        p.file,
        Buffer.from('\r\n'),
      );
    } else
      chunks.push(
        Buffer.from(`Content-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value ?? ''}\r\n`),
      );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

export type FuzzOptions = {
  transport: Transport;
  requests: number;
  seed?: number;
  timeoutMs?: number;
  /** Called every `progressEvery` requests. */
  progress?: (done: number, report: FuzzReport) => void;
  progressEvery?: number;
  /** Runs after the accounts exist (e.g. to give the owner data no route creates). */
  prepare?: (userIds: { admin: number; owner: number; intruder: number }) => Promise<void>;
  /**
   * Why an id-taking operation may be left out of the BOLA matrix ('METHOD /path' → reason). Any
   * other operation the fuzzer finds no id of the owner's for is a failure, so none goes untested.
   */
  skipReasons?: Record<string, string>;
  /**
   * The writes an EDITOR of a shared vehicle may make ('METHOD /path' → true): the matrix does not
   * send them as the editor. Every other write with an id of the owner's must refuse the editor,
   * and every write must refuse the VIEWER (403 or 404); their reads are theirs by design.
   */
  editorMay?: (operation: string) => boolean;
  /** Bytes above which a connection the server closes without an answer counts as a refusal (1 MiB). */
  bodyLimit?: number;
};

export async function fuzz(opts: FuzzOptions): Promise<FuzzReport> {
  const started = Date.now();
  const seed = opts.seed ?? Math.floor(Math.random() * 2 ** 31);
  const rng = prng(seed);
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const report: FuzzReport = {
    seed,
    operations: 0,
    requests: 0,
    byClass: {},
    byMutation: {},
    failures: [],
    bola: [],
    millis: 0,
  };

  const anon = clientFor(opts.transport, timeoutMs);
  const docRes = await anon.send({ method: 'GET', url: '/api/openapi.json', headers: {} });
  const ops = operationsOf(JSON.parse(docRes.body));
  report.operations = ops.length;
  const register = ops.find((o) => o.method === 'POST' && /\/auth\/register$/.test(o.path));
  const login = ops.find((o) => o.method === 'POST' && /\/auth\/login$/.test(o.path));
  if (!register || !login) throw new Error('the OpenAPI document has no register and login operations');

  // Four accounts: the first registered becomes the administrator; `owner` owns the data the
  // fuzz and the BOLA matrix aim at; `intruder` is the second user; `buyer` only opens what another
  // user may start with the owner (a conversation about a listing), so the owner has those ids too.
  const tag = `${seed.toString(36)}${Date.now().toString(36).slice(-4)}`;
  const password = 'correct horse 1';
  // `editor` and `viewer`: the owner shares every vehicle with them (issue 22); the matrix tries
  // the owner's ids as each of them too.
  const accounts: Record<
    'admin' | 'owner' | 'intruder' | 'buyer' | 'editor' | 'viewer',
    Client & { username: string }
  > = {} as never;
  const userIds = { admin: 0, owner: 0, intruder: 0, buyer: 0, editor: 0, viewer: 0 };
  for (const who of ['admin', 'owner', 'intruder', 'buyer', 'editor', 'viewer'] as const) {
    const c = Object.assign(clientFor(opts.transport, timeoutMs), { username: `fz_${who}_${tag}` });
    const body = { ...(validValue(register.body, '', register.path, new Map(), rng) as object) };
    Object.assign(body, {
      username: c.username,
      email: `${c.username}@example.com`,
      password,
      gdprConsent: true,
    });
    let res = await c.json('POST', register.path, body);
    if (res.status >= 300) res = await c.json('POST', login.path, { username: c.username, password });
    if (res.status >= 300) throw new Error(`cannot register ${c.username}: ${res.status} ${res.body}`);
    userIds[who] = Number((res.data as { user?: { id?: number } } | undefined)?.user?.id);
    accounts[who] = c;
  }
  const relogin = async (c: Client & { username: string }) => {
    c.session.cookies.clear();
    c.session.csrf = undefined;
    await c.json('POST', login.path, { username: c.username, password });
  };

  // Data of each user: creates in dependency order (an operation whose references are all known).
  const pools: Record<'owner' | 'intruder' | 'admin' | 'buyer', Pools> = {
    owner: new Map(),
    intruder: new Map(),
    admin: new Map(),
    buyer: new Map(),
  };
  const creates = ops.filter(
    (o) => o.method === 'POST' && !o.path.includes('{') && o.body && !/\/auth\//.test(o.path),
  );
  const createPaths = new Set(creates.map((o) => o.path));
  for (const o of creates) for (const p of Object.values(pools)) p.set(o.path, []);
  const addIds = (pool: Pools, path: string, res: FuzzResponse & { data?: unknown }) => {
    const id = (res.data as { id?: number | string } | undefined)?.id;
    if (res.status < 300 && id !== undefined) pool.get(collectionOf(path))?.push(id);
    const url = /^"?(\/api\/[A-Za-z0-9/_-]+)\/([A-Za-z0-9_-]{8,64})"?$/.exec(res.body.trim());
    if (res.status < 300 && url?.[1] && url[2]) {
      if (!pool.has(url[1])) pool.set(url[1], []);
      pool.get(url[1])?.push(url[2]);
    }
  };
  for (const who of ['owner', 'intruder', 'admin'] as const) {
    const c = accounts[who];
    const pool = pools[who];
    for (let round = 0; round < 3; round++) {
      for (const o of creates) {
        if ((pool.get(o.path)?.length ?? 0) >= 2) continue;
        if (who !== 'admin' && o.path.includes('/admin/')) continue;
        for (let attempt = 0; attempt < 3; attempt++) {
          const res = await c.json('POST', o.path, validValue(o.body, '', o.path, pool, rng));
          addIds(pool, o.path, res);
          if (res.status < 300) break;
        }
      }
    }
    // File parts: a real image into every operation that takes one, for the user's own ids.
    for (const o of ops.filter((x) => x.filePart && x.method === 'POST')) {
      const url = fillPath(o, pool, rng);
      if (!url) continue;
      const fields = Object.entries(TEXT_PARTS[`${o.method} ${o.path}`] ?? {}).map(([name, v]) => ({
        name,
        value: JSON.stringify(v),
      }));
      const { body, contentType } = multipartBody([...fields, { name: o.filePart as string, file: PNG_1X1 }]);
      const res = await c.send({ method: 'POST', url, headers: { 'content-type': contentType }, body });
      addIds(pool, o.path, { ...res, data: undefined });
      // An upload that answers the object it made (a document): its id, kept by the upload's path.
      const made = res.status < 300 ? /^\{"id":(\d+),/.exec(res.body)?.[1] : undefined;
      if (made) pool.set(o.path, [...(pool.get(o.path) ?? []), Number(made)]);
    }
    // Creates under a parent of the user's (a vehicle's renewals): their ids, kept by the create's path.
    for (const o of ops.filter(
      (x) => x.method === 'POST' && /\/\{[^}]+\}\/[a-z-]+s$/.test(x.path) && x.body && !x.filePart,
    )) {
      const url = fillPath(o, pool, rng);
      if (!url) continue;
      const res = await c.json('POST', url, validValue(o.body, '', o.path, pool, rng));
      const id = (res.data as { id?: number | string } | undefined)?.id;
      if (res.status < 300 && id !== undefined) pool.set(o.path, [...(pool.get(o.path) ?? []), id]);
    }
  }

  // The owner shares each of their vehicles: with the editor as EDITOR, the viewer as VIEWER.
  const shareOp = ops.find((o) => o.method === 'POST' && o.path === '/api/vehicles/{id}/shares');
  const sharedVehicles = pools.owner.get('/api/vehicles') ?? [];
  if (shareOp)
    for (const vehicleId of sharedVehicles)
      for (const [who, role] of [
        ['editor', 'EDITOR'],
        ['viewer', 'VIEWER'],
      ] as const) {
        const res = await accounts.owner.json('POST', `/api/vehicles/${vehicleId}/shares`, {
          username: accounts[who].username,
          role,
        });
        if (res.status >= 300) throw new Error(`cannot share with the ${who}: ${res.status} ${res.body}`);
      }

  await opts.prepare?.(userIds);
  // Ids no create operation answered (e.g. notifications): harvest them from the user's own lists,
  // leaving out items that name another user as their owner (a shared list such as the market's).
  const harvest = async () => {
    for (const who of ['owner', 'intruder', 'admin'] as const) {
      // Top-level lists, and lists under a parent of the user's (a webhook's deliveries), kept by
      // their path as the creates under a parent are.
      for (const o of ops.filter(
        (x) =>
          x.method === 'GET' &&
          (!x.path.includes('{') || /^[^{]*\{id\}\/[a-z-]+s$/.test(x.path)) &&
          !/\/auth\//.test(x.path),
      )) {
        if (pools[who].get(o.path)?.length) continue;
        const url = o.path.includes('{') ? fillPath(o, pools[who], rng) : o.path;
        if (!url) continue;
        const res = await accounts[who].json('GET', url);
        if (!Array.isArray(res.data)) continue;
        const ids = (res.data as Record<string, unknown>[])
          .filter((x) => !Object.entries(x ?? {}).some(([k, v]) => OWNER_FIELD.test(k) && v !== userIds[who]))
          .map((x) => x?.id)
          .filter((id): id is number | string => typeof id === 'number' || typeof id === 'string');
        if (ids.length) pools[who].set(o.path, ids.slice(0, 5));
      }
    }
  };
  await harvest();
  // What another user starts with the owner by design (interest in a listing opens a conversation):
  // the buyer does it on the owner's ids, and the ids it answers (`id`, `<noun>Id`) are the owner's
  // too, e.g. the conversation's, which the BOLA matrix then tries as the intruder.
  for (const o of ops.filter((x) => x.method === 'POST' && SHARED_BY_DESIGN.has(`${x.method} ${x.path}`))) {
    const url = fillPath(o, pools.owner, rng, undefined, createPaths);
    if (!url) continue;
    const body = o.body ? validValue(o.body, '', o.path, pools.buyer, rng) : undefined;
    const res = await accounts.buyer.json('POST', url, body);
    if (res.status >= 300 || !res.data || typeof res.data !== 'object') continue;
    const parent = collectionOf(o.path).replace(/\/[^/]+$/, '');
    for (const [k, v] of Object.entries(res.data as Record<string, unknown>)) {
      const noun = k === 'id' ? undefined : /^(.+)Id$/.exec(k)?.[1];
      if ((typeof v !== 'number' && typeof v !== 'string') || (k !== 'id' && !noun)) continue;
      const key = noun
        ? `${parent}/${noun.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`
        : collectionOf(o.path);
      pools.owner.set(key, [...(pools.owner.get(key) ?? []), v]);
    }
  }
  await harvest(); // e.g. the notification the owner got about that conversation

  // ── BOLA matrix: every operation with an id of the owner's, sent by the intruder; and the
  // writes among them by the editor and the viewer of the owner's shared vehicles ──
  const ownerMarkers = [accounts.owner.username];
  const tried = (shareOp ? (['intruder', 'viewer', 'editor'] as const) : (['intruder'] as const)).slice();
  for (const who of tried)
    for (const o of ops) {
      const operation = `${o.method} ${o.path}`;
      if (who !== 'intruder') {
        // A grantee reads what is shared by design; their writes are what the matrix checks.
        if (o.method === 'GET' || SHARED_BY_DESIGN.has(operation)) continue;
        if (who === 'editor' && opts.editorMay?.(operation)) continue;
      }
      const label = who === 'intruder' ? operation : `${operation} (as ${who})`;
      if (SHARED_BY_DESIGN.has(operation)) {
        report.bola.push({ operation: label, status: 0, ok: true, why: 'shared by design' });
        continue;
      }
      const idParams = o.params.filter((p) => p.in === 'path');
      const refFields = Object.keys(flatten(o.body).properties ?? {}).filter((k) => /Id$/.test(k));
      if (idParams.length === 0 && refFields.length === 0) continue;
      if (o.path.includes('/admin/') || /\/auth\//.test(o.path)) {
        // Admin operations: the intruder is not an admin, so the answer must be 403 (or 404).
        if (idParams.length === 0) continue;
      }
      // A share names its grantee: the other grantee's (the intruder tries the viewer's), never the
      // sender's own, which they may end by design (leaving).
      const grantee = who === 'viewer' ? userIds.editor : userIds.viewer;
      const path = shareOp ? o.path.replace('/shares/{userId}', `/shares/${grantee}`) : o.path;
      const url = fillPath(
        { ...o, path, params: path === o.path ? o.params : o.params.filter((p) => p.name !== 'userId') },
        pools.owner,
        rng,
        o.path.includes('/admin/') ? pools.admin : undefined,
        createPaths,
      );
      if (!url) {
        const reason = opts.skipReasons?.[operation];
        report.bola.push({
          operation: label,
          status: 0,
          ok: reason !== undefined,
          skipped: true,
          why: reason ?? 'no id of the owner to try, and no reason given for skipping it',
        });
        continue;
      }
      const body = o.body ? validValue(o.body, '', o.path, pools.owner, rng) : undefined;
      const multipart = o.filePart ? multipartBody([{ name: o.filePart, file: PNG_1X1 }]) : undefined;
      const res = multipart
        ? await accounts[who].send({
            method: o.method,
            url,
            headers: { 'content-type': multipart.contentType },
            body: multipart.body,
          })
        : await accounts[who].json(o.method, url, body);
      count(report, res.status, 'bola');
      const leaked = ownerMarkers.some((m) => res.body.includes(m));
      let ok = (res.status === 404 || res.status === 403) && !leaked;
      let why: string | undefined;
      if (!ok && !leaked && res.status >= 400 && res.status < 500) {
        // Refused for its shape before ownership was checked: fine if the owner gets the same answer.
        const mine = multipart
          ? await accounts.owner.send({
              method: o.method,
              url,
              headers: { 'content-type': multipart.contentType },
              body: multipart.body,
            })
          : await accounts.owner.json(o.method, url, body);
        ok = mine.status === res.status;
        why = ok
          ? 'refused before ownership, as for the owner'
          : `answered ${res.status}, the owner ${mine.status}`;
      }
      report.bola.push({
        operation: label,
        status: res.status,
        ok,
        why: why ?? (ok ? undefined : leaked ? 'answer shows the owner’s data' : `answered ${res.status}`),
      });
    }

  // ── the fuzz: N requests, operations round-robin, one mutation each ──
  const fuzzers = [accounts.owner, accounts.admin] as const;
  const fuzzPools = [pools.owner, pools.admin];
  for (let i = 0; report.requests < opts.requests; i++) {
    const o = ops[i % ops.length] as Operation;
    const who = rng.int(2);
    const c = fuzzers[who] as Client & { username: string };
    const pool = fuzzPools[who] as Pools;
    const foreignPool = pools.intruder;
    const { mutation, request } = mutate(o, pool, foreignPool, rng);
    // Logout and refresh end or rotate the session: mostly send them without it (a new login per
    // request would cost an argon2 hash), sometimes with it and a wrong CSRF token, rarely for real.
    const endsSession = /\/auth\/(logout|refresh)$/.test(o.path);
    const roll = rng.next();
    // Other auth operations (register, login) would replace the session: a separate client sends them.
    const sender = /\/auth\//.test(o.path) && !(endsSession && roll >= 0.6) ? anon : c;
    if (endsSession && roll >= 0.6 && roll < 0.9) request.headers['x-csrf-token'] = 'wrong';
    let res: FuzzResponse | undefined;
    try {
      res = await sender.send(request);
    } catch (err) {
      report.requests += 1;
      if (err instanceof HangError) {
        count(report, 0, mutation);
        report.failures.push({ kind: 'hang', mutation, request: redact(request) });
        continue;
      }
      const code = (err as { code?: string }).code;
      const verdict = closedConnectionVerdict(code, bodyBytes(request), opts.bodyLimit);
      count(report, -1, mutation);
      if (verdict === 'refused') continue;
      const how = `connection ${code === 'ECONNREFUSED' ? 'refused' : 'closed'} without an answer (${code ?? String(err)})`;
      report.failures.push({ kind: 'closed', mutation, request: redact(request), body: how });
      if (verdict === 'server gone') {
        report.stopped = `the server stopped answering after ${report.requests} requests`;
        break;
      }
      continue;
    }
    report.requests += 1;
    count(report, res.status, mutation);
    if (res.status >= 500) {
      report.failures.push({
        kind: '5xx',
        mutation,
        request: redact(request),
        status: res.status,
        body: res.body.slice(0, 300),
      });
    }
    // Fuzzing may log the user out (logout, refresh with a bad token): log back in.
    if (
      sender === c &&
      ((res.status === 401 && !/\/auth\//.test(o.path)) || (endsSession && res.status < 300))
    )
      await relogin(c);
    if (opts.progress && report.requests % (opts.progressEvery ?? 1000) === 0)
      opts.progress(report.requests, report);
  }
  report.millis = Date.now() - started;
  return report;
}

const bodyBytes = (req: FuzzRequest) =>
  req.body === undefined ? 0 : Buffer.isBuffer(req.body) ? req.body.length : Buffer.byteLength(req.body);

/** `status` 0: a hang; -1: the connection ended without an answer. */
function count(report: FuzzReport, status: number, mutation: string) {
  const cls = status === 0 ? 'hang' : status < 0 ? 'closed' : `${Math.floor(status / 100)}xx`;
  report.byClass[cls] = (report.byClass[cls] ?? 0) + 1;
  report.byMutation[mutation] = (report.byMutation[mutation] ?? 0) + 1;
}

/**
 * The URL of an operation with valid ids from `pool` (null when a needed id is missing). An `{id}`
 * under a verb rather than its collection (`/api/x/edit/{id}`) takes the ids made by the creates
 * (`createPaths`) beside it (`/api/x/list`).
 */
function fillPath(
  o: Operation,
  pool: Pools,
  rng: Rng,
  extra?: Pools,
  createPaths?: Set<string>,
): string | null {
  let url = o.path;
  for (const p of o.params.filter((x) => x.in === 'path')) {
    // A secret rather than an id (a share link's token): no one lists another user's, so the
    // intruder can only guess one; the id beside it is what the access check is about.
    if (p.name !== 'id' && !/Id$/.test(p.name)) {
      url = url.replace(`{${p.name}}`, `fuzz-${p.name}-${rng.int(1e9)}`);
      continue;
    }
    const key = collectionFor(p.name, o.path, pool);
    const ids = (key && pool.get(key)) || (key && extra?.get(key)) || [];
    const fromExtra = key ? extra?.get(key) : undefined;
    let choice = ids.length ? ids : (fromExtra ?? []);
    if (!choice.length && p.name === 'id' && createPaths) {
      const parent = collectionOf(o.path).replace(/\/[^/]+$/, '');
      choice = [...createPaths]
        .filter((c) => c.replace(/\/[^/]+$/, '') === parent)
        .flatMap((c) => pool.get(c) ?? []);
    }
    if (!choice.length) return null;
    url = url.replace(`{${p.name}}`, encodeURIComponent(String(rng.pick(choice))));
  }
  return url;
}

/** Shortens big bodies for the report; cookies are session-specific and left out. */
function redact(req: FuzzRequest): FuzzRequest {
  const { cookie: _c, ...headers } = req.headers;
  const body =
    req.body === undefined ? undefined : Buffer.isBuffer(req.body) ? req.body.toString('latin1') : req.body;
  return {
    ...req,
    headers,
    body: body && body.length > 400 ? `${body.slice(0, 400)}… (${body.length} bytes)` : body,
  };
}

/** One bad request for operation `o`: the mutation's name and the request. */
function mutate(
  o: Operation,
  pool: Pools,
  foreign: Pools,
  rng: Rng,
): { mutation: string; request: FuzzRequest } {
  const foreignId = (name: string) => {
    const key = collectionFor(name, o.path, foreign);
    const ids = key ? foreign.get(key) : undefined;
    return ids?.length ? String(rng.pick(ids)) : undefined;
  };
  let url = o.path;
  let mutation = 'valid';
  const pathParams = o.params.filter((p) => p.in === 'path');
  const queryParams = o.params.filter((p) => p.in === 'query');
  const mutatePath = pathParams.length > 0 && rng.chance(0.35);
  for (const p of pathParams) {
    const key = collectionFor(p.name, o.path, pool);
    const own = key ? pool.get(key) : undefined;
    let value: string;
    if (mutatePath && rng.chance(0.7)) {
      value = badParamText(p.schema, rng, () => foreignId(p.name));
      mutation = value === foreignId(p.name) ? 'foreign id' : 'bad path param';
    } else value = own?.length ? encodeURIComponent(String(rng.pick(own))) : '999999';
    url = url.replace(`{${p.name}}`, value);
  }
  const query: string[] = [];
  for (const p of queryParams) {
    const roll = rng.next();
    if (roll < 0.5) {
      query.push(`${encodeURIComponent(p.name)}=${badParamText(p.schema, rng, () => undefined)}`);
      if (mutation === 'valid') mutation = 'bad query param';
    } else if (roll < 0.75)
      query.push(`${p.name}=${encodeURIComponent(String(validValue(p.schema, p.name, o.path, pool, rng)))}`);
  }
  if (rng.chance(0.05)) {
    query.push('x=1&x=2&__proto__[a]=1&constructor[prototype][b]=1');
    if (mutation === 'valid') mutation = 'odd query';
  }
  if (query.length) url += `?${query.join('&')}`;

  const headers: Record<string, string> = {};
  if (o.method === 'GET' || o.method === 'DELETE') {
    if (rng.chance(0.1)) {
      headers['content-type'] = 'application/json';
      return { mutation: 'body on GET/DELETE', request: { method: o.method, url, headers, body: '{"a":' } };
    }
    return { mutation, request: { method: o.method, url, headers } };
  }

  const valid = o.body ? (validValue(o.body, '', o.path, pool, rng) as Record<string, unknown>) : {};
  const props = Object.entries(flatten(o.body).properties ?? {});
  const json = (value: unknown, name: string) => {
    headers['content-type'] = 'application/json';
    return {
      mutation: mutation === 'valid' ? name : `${mutation} + ${name}`,
      request: { method: o.method, url, headers, body: JSON.stringify(value) },
    };
  };
  const raw = (body: string | Buffer, contentType: string, name: string) => {
    headers['content-type'] = contentType;
    return {
      mutation: mutation === 'valid' ? name : `${mutation} + ${name}`,
      request: { method: o.method, url, headers, body },
    };
  };
  const field = () => (props.length ? rng.pick(props) : undefined);

  if (o.multipart) {
    const part = o.filePart ?? 'file';
    switch (rng.int(7)) {
      case 0:
        return raw(
          multipartBody([{ name: part, file: Buffer.from('not an image at all') }]).body,
          'multipart/form-data; boundary=wrong',
          'multipart wrong boundary',
        );
      case 1: {
        const m = multipartBody([{ name: part, file: PNG_1X1 }]);
        return raw(m.body.subarray(0, m.body.length - 20), m.contentType, 'multipart truncated');
      }
      case 2: {
        const m = multipartBody([
          { name: part, file: Buffer.concat([PNG_1X1.subarray(0, 30), Buffer.alloc(200, 0)]) },
        ]);
        return raw(m.body, m.contentType, 'multipart corrupt image');
      }
      case 3: {
        const m = multipartBody([
          {
            name: 'data',
            value: rng.chance(0.5) ? '{"a":' : JSON.stringify({ ...valid, version: rng.pick(BAD_NUMBERS) }),
          },
          { name: 'removePhoto', value: rng.pick(['true', 'yes', '\u0000']) },
        ]);
        return raw(m.body, m.contentType, 'multipart bad fields');
      }
      case 4:
        return json(valid, 'JSON for multipart');
      case 5: {
        const m = multipartBody(Array.from({ length: 30 }, (_, i) => ({ name: `f${i}`, value: 'x' })));
        return raw(m.body, m.contentType, 'multipart too many parts');
      }
      default: {
        const m = multipartBody([
          { name: part, file: PNG_1X1 },
          { name: part, file: PNG_1X1 },
        ]);
        return raw(m.body, m.contentType, 'multipart two files');
      }
    }
  }

  switch (rng.int(14)) {
    case 0:
    case 1: {
      const f = field();
      if (!f) return json(valid, 'valid body');
      return json(
        { ...valid, [f[0]]: badScalar(f[1], rng) },
        `bad field ${typeOf(flatten(f[1])) ?? ''}`.trim(),
      );
    }
    case 2: {
      const f = field();
      if (!f) return json(valid, 'valid body');
      return json({ ...valid, [f[0]]: rng.pick(BAD_NUMBERS) }, 'boundary number');
    }
    case 3: {
      const f = field();
      const name = f?.[0] ?? 'x';
      return raw(
        `{${Object.entries(valid)
          .map(
            ([k, v]) =>
              `${JSON.stringify(k)}:${k === name ? rng.pick(['NaN', 'Infinity', '-Infinity', '1e999', '-0', '01', '0x10']) : JSON.stringify(v)}`,
          )
          .join(',')}}`,
        'application/json',
        'NaN / non-JSON number',
      );
    }
    case 4: {
      const f = field();
      if (!f) return json(valid, 'valid body');
      return json(
        { ...valid, [f[0]]: rng.chance(0.5) ? MB_STRING : rng.pick(ODD_UNICODE) },
        'huge or odd string',
      );
    }
    case 5: {
      const f = props.find(([, s]) => typeOf(flatten(s)) === 'string') ?? field();
      if (!f) return json(valid, 'valid body');
      return json({ ...valid, [f[0]]: rng.pick(BAD_DATES) }, 'bad date');
    }
    case 6:
      return raw(
        rng.chance(0.5)
          ? deepJson(rng.pick([100, 1000, 10_000, 100_000]))
          : `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`,
        'application/json',
        'deep JSON',
      );
    case 7:
      return json(rng.chance(0.5) ? [valid] : rng.pick(WRONG_TYPES), 'array or scalar for object');
    case 8:
      return raw(
        JSON.stringify(valid),
        rng.pick([
          'text/plain',
          'application/xml',
          'application/x-www-form-urlencoded',
          'application/json; charset=latin1',
          'application/jsonx',
          '',
          'multipart/form-data',
        ]),
        'wrong content type',
      );
    case 9: {
      const s = JSON.stringify(valid);
      return raw(
        rng.pick([
          s.slice(0, Math.max(1, s.length - 3)),
          `${s},`,
          `{${s}`,
          "{'a':1}",
          '',
          '\u0000',
          '\ufeff{}',
          'null',
        ]),
        'application/json',
        'malformed JSON',
      );
    }
    case 10:
      return raw(
        `{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}},${JSON.stringify({ ...valid, role: 'ADMIN', ownerId: 1, id: 1, extra: 'x'.repeat(100) }).slice(1)}`,
        'application/json',
        'extra fields',
      );
    case 11: {
      const copy = { ...valid };
      const f = field();
      if (f) delete copy[f[0]];
      return json(copy, 'missing field');
    }
    case 12: {
      const f = props.find(([k]) => /Id$/.test(k));
      if (!f) return json({ ...valid, id: rng.pick(BAD_NUMBERS) }, 'bad id field');
      const id = foreignId(f[0]);
      return json(
        {
          ...valid,
          [f[0]]:
            id !== undefined && rng.chance(0.6)
              ? Number(id)
              : rng.pick([999999999, 2147483648, -1, 0, '1', null]),
        },
        id ? 'foreign id in body' : 'non-existent id in body',
      );
    }
    default:
      return json(valid, 'valid body');
  }
}

/**
 * Operations whose ids are meant for other users: a listing's photos are shown to every logged-in
 * user, interest is how a buyer reaches someone else's listing (spec §6), and a report's
 * verification code is public.
 */
const SHARED_BY_DESIGN = new Set([
  'GET /api/marketplace/photos/{fileId}',
  'POST /api/marketplace/interest/{listingId}',
  // An active listing is on the market for every logged-in user; an inactive one answers 404 to all
  // but its seller and admins (marketplace-paging.test.ts).
  'GET /api/marketplace/listings/{id}',
  // Anyone holding a printed history report checks its code (no login).
  'GET /api/report/verify/{code}',
]);

/** A field naming whose an item is; harvested lists keep only the user's own items. */
const OWNER_FIELD = /^(owner|seller|user)Id$/;

/** The report as text: counts, the BOLA matrix and every failure with a reproduction. */
export function formatReport(r: FuzzReport, base = 'http://127.0.0.1:8080'): string {
  const lines: string[] = [];
  lines.push(
    `Fuzzed ${r.operations} operations with ${r.requests} requests in ${(r.millis / 1000).toFixed(1)} s (seed ${r.seed}).`,
  );
  lines.push(
    `By status class: ${Object.entries(r.byClass)
      .sort()
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
  lines.push('By mutation:');
  for (const [k, v] of Object.entries(r.byMutation).sort((a, b) => b[1] - a[1]))
    lines.push(`  ${String(v).padStart(6)}  ${k}`);
  const skipped = r.bola.filter((b) => b.skipped).length;
  const refused = r.bola.filter((b) => b.ok && !b.skipped).length;
  lines.push(
    `BOLA matrix (a second user with the owner's ids): ${refused}/${r.bola.length - skipped} operations refused, ${skipped} skipped (no id to try)`,
  );
  for (const b of r.bola)
    lines.push(
      `  ${b.skipped ? (b.ok ? 'skip' : 'FAIL') : b.ok ? 'ok  ' : 'FAIL'} ${String(b.status).padStart(3)}  ${b.operation}${b.why ? `  (${b.why})` : ''}`,
    );
  const fives = r.failures.filter((f) => f.kind === '5xx').length;
  const hangs = r.failures.filter((f) => f.kind === 'hang').length;
  const closed = r.failures.filter((f) => f.kind === 'closed').length;
  lines.push(`5xx: ${fives}, hangs: ${hangs}, closed without an answer: ${closed}`);
  if (r.stopped) lines.push(`Stopped early: ${r.stopped}.`);
  for (const f of r.failures) {
    lines.push(
      `\n${f.kind === 'hang' ? 'HANG' : f.kind === 'closed' ? 'CLOSED' : f.status} after ${f.mutation}: ${f.request.method} ${f.request.url}`,
    );
    const h = Object.entries(f.request.headers)
      .map(([k, v]) => ` -H ${shellQuote(`${k}: ${v}`)}`)
      .join('');
    const body = f.request.body === undefined ? '' : ` --data-binary ${shellQuote(String(f.request.body))}`;
    lines.push(
      `  curl -X ${f.request.method} ${shellQuote(base + f.request.url)}${h}${body}  (plus the session cookie)`,
    );
    if (f.body) lines.push(`  → ${f.body}`);
  }
  lines.push(`\n${verdictOf(r)}`);
  return lines.join('\n');
}

/** The run's last line: PASS, or FAIL with what failed (what the exit code says, in words). */
export function verdictOf(r: FuzzReport): string {
  const bola = r.bola.filter((b) => !b.ok).length;
  const parts = [
    r.failures.length ? `${r.failures.length} request failure(s) (5xx, hang or closed)` : '',
    bola ? `${bola} BOLA matrix failure(s)` : '',
    r.stopped ? `stopped early (${r.stopped})` : '',
  ].filter(Boolean);
  return exitCodeOf(r) === 0
    ? `PASS: ${r.requests} requests, ${r.bola.length} BOLA checks, no failure.`
    : `FAIL: ${parts.join(', ')}.`;
}

const shellQuote = (s: string) =>
  `'${[...s.replaceAll("'", "'\\''")].map((c) => (c.charCodeAt(0) < 32 ? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}` : c)).join('')}'`;

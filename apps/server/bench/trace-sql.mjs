// Preloaded into the server by bench:api (`node --import`): while tracing is on (SIGUSR2 toggles it),
// every statement the server sends to PostgreSQL (pg) or PGlite is appended to SQL_TRACE_FILE as one
// JSON line {text, values, name?}, so the bench can replay exactly those statements through bare `pg`
// / PGlite. Off by default, so the load itself runs untraced.
import { appendFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

const file = process.env.SQL_TRACE_FILE;
let on = false;
if (file) process.on('SIGUSR2', () => (on = !on));
const record = (text, values, name) => {
  if (on)
    appendFileSync(file, `${JSON.stringify({ text, values: values ?? [], ...(name ? { name } : {}) })}\n`);
};

const pgQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (config, values, cb) {
  if (typeof config === 'string') record(config, Array.isArray(values) ? values : undefined);
  else if (config && typeof config.text === 'string')
    record(config.text, Array.isArray(values) ? values : config.values, config.name);
  return pgQuery.call(this, config, values, cb);
};

const base = Object.getPrototypeOf(PGlite.prototype);
const liteQuery = base.query;
base.query = function (text, params, options) {
  record(text, params);
  return liteQuery.call(this, text, params, options);
};

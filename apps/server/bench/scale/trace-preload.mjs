// Preloaded into the scale bench's tracing server (`node --import`): while the file SQL_TRACE_FLAG
// exists, every statement the server sends through pg is appended to SQL_TRACE_FILE as one JSON
// line {text, values}. A file, not a signal as in ../trace-sql.mjs: two signals sent close together
// on a busy machine arrive as one, and the trace then ran inverted.
import { appendFileSync, existsSync } from 'node:fs';
import pg from 'pg';

const file = process.env.SQL_TRACE_FILE;
const flag = process.env.SQL_TRACE_FLAG;
const record = (text, values) => {
  if (file && flag && existsSync(flag))
    appendFileSync(file, `${JSON.stringify({ text, values: values ?? [] })}\n`);
};

const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (config, values, cb) {
  if (typeof config === 'string') record(config, Array.isArray(values) ? values : undefined);
  else if (config && typeof config.text === 'string')
    record(config.text, Array.isArray(values) ? values : config.values);
  return query.call(this, config, values, cb);
};

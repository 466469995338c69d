// Starts the built server on a fresh, empty data directory so every e2e run begins with no accounts.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

process.env.DATA_DIR = mkdtempSync(join(tmpdir(), 'evdra-e2e-'));
process.env.LOG_LEVEL ??= 'warn';
process.env.HOST ??= '127.0.0.1';
process.env.PUBLIC_URL ??= `http://127.0.0.1:${process.env.PORT ?? 8181}`;
await import('../../server/dist/main.js');

// Run by build.mjs after bundling: dist/pglite-template, a migrated empty embedded database.
import { join } from 'node:path';
import { findUp } from '../lib/paths.js';
import { buildPgliteTemplate, TEMPLATE_DIR } from './template.js';

const started = performance.now();
await buildPgliteTemplate(join(import.meta.dirname, TEMPLATE_DIR), findUp(import.meta.dirname, 'drizzle'));
process.stdout.write(`PGlite template built in ${Math.round(performance.now() - started)} ms\n`);

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { banner } from './start-text.mjs';

const root = new URL('..', import.meta.url).pathname;

describe('npm start', () => {
  it('--help lists the commands and exits without building or starting anything', () => {
    for (const flag of ['--help', '-h']) {
      const out = execFileSync(process.execPath, ['scripts/start.mjs', flag], {
        cwd: root,
        encoding: 'utf8',
        timeout: 10_000,
      });
      for (const command of [
        'npm start',
        'npm run seed:demo',
        'npm run backup -- FILE',
        'npm run restore -- FILE',
      ])
        expect(out).toContain(command);
      expect(out).toContain('.env.example');
      expect(out).toContain('/api/health/ready');
      expect(out).not.toContain('Building');
    }
  });

  it('reads .env when present, with Node’s own flag', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(pkg.scripts.start).toBe('node --env-file-if-exists=.env scripts/start.mjs');
  });

  it('once listening, prints the URL, where the data lives and, the first time, who becomes admin', () => {
    const first = banner({
      url: 'http://localhost:8080',
      database: 'pglite',
      databaseLocation: '/srv/evdra/data/pglite',
      dataDir: '/srv/evdra/data',
      firstRun: true,
    });
    expect(first).toContain('Evdra is running at http://localhost:8080');
    expect(first).toContain('/srv/evdra/data (embedded database in /srv/evdra/data/pglite)');
    expect(first).toContain('The first account you register becomes the administrator.');
    const later = banner({
      url: 'https://cars.example.com',
      database: 'postgres',
      databaseLocation: 'PostgreSQL at db.internal:5432/evdra',
      dataDir: '/srv/evdra/data',
      firstRun: false,
    });
    expect(later).toContain('Database:  PostgreSQL at db.internal:5432/evdra');
    expect(later).not.toContain('administrator');
  });
});

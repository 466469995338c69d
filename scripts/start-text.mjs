// What `npm start` prints: its help, and where things are once the server listens.

export const HELP = `Evdra: self-hosted vehicle management (fuel, expenses, insurance, services, marketplace).

Usage: npm start [-- --help]

Commands, run from the repository root:
  npm start                           Build what is missing, migrate the database, serve the app
                                      and the API on PORT (default 8080).
  npm run seed:demo                   Fill a new, empty data directory with three years of demo
                                      data (prints the demo logins; refuses to run twice).
  npm run backup -- FILE              Write the whole instance (users, records, photos) to FILE.
  npm run restore -- FILE [--force]   Restore FILE into an empty data directory or database
                                      (--force replaces a non-empty one).

Configuration: environment variables, or a .env file in the repository root, which npm start
reads when present (cp .env.example .env lists every variable with its default). Data lives in
DATA_DIR (default ./data, an embedded PostgreSQL); DATABASE_URL=postgres://... uses a PostgreSQL
server instead.

Health: GET /api/health (database and optional services), GET /api/health/ready (load balancers).
`;

/**
 * The lines printed once the server listens.
 * @param {{url: string, database: 'pglite' | 'postgres', databaseLocation: string, dataDir: string, firstRun: boolean}} s
 */
export function banner(s) {
  const lines = [`Evdra is running at ${s.url}`];
  if (s.database === 'pglite')
    lines.push(`  Data:      ${s.dataDir} (embedded database in ${s.databaseLocation})`);
  else lines.push(`  Database:  ${s.databaseLocation}`, `  Data dir:  ${s.dataDir}`);
  if (s.firstRun)
    lines.push('  First run: no account yet. The first account you register becomes the administrator.');
  lines.push('  Stop with Ctrl+C. `npm start -- --help` lists the commands (seed:demo, backup, restore).');
  return `${lines.join('\n')}\n`;
}

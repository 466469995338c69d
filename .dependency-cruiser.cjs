/**
 * Boundaries, checked by `npm run boundaries` (a step of `npm test`).
 * Web: features are islands (the app layer composes them); lib and components sit below features.
 * Server: modules go routes → service → repo; plugins, jobs and adapters never reach into a module's
 * routes; no cycles between files or between folders (scripts/boundaries.mjs checks folders).
 */
const WEB = '^apps/web/src/';
const SRV = '^apps/server/src/';

module.exports = {
  forbidden: [
    {
      name: 'web-feature-imports-other-feature',
      comment: 'A web feature must not import another feature: move the shared piece to lib/ or components/.',
      severity: 'error',
      from: { path: `${WEB}features/([^/]+)/` },
      to: { path: `${WEB}features/`, pathNot: `${WEB}features/$1/` },
    },
    {
      name: 'web-imports-app-layer',
      comment:
        'Only the app layer (router, layout, providers) may import app/: it composes features, not the reverse.',
      severity: 'error',
      from: { path: `${WEB}(features|components|lib)/` },
      to: { path: `${WEB}app/` },
    },
    {
      name: 'web-shared-imports-feature',
      comment: 'lib/ and components/ are below every feature and must not import one.',
      severity: 'error',
      from: { path: `${WEB}(lib|components)/` },
      to: { path: `${WEB}features/` },
    },
    {
      name: 'web-lib-imports-components',
      comment: 'lib/ holds no React components: it must not import components/.',
      severity: 'error',
      from: { path: `${WEB}lib/` },
      to: { path: `${WEB}components/` },
    },
    {
      name: 'server-repo-imports-upwards',
      comment: 'A repo is the bottom layer: it must not import a service or routes.',
      severity: 'error',
      from: { path: `${SRV}.+\\.repo\\.ts$` },
      to: { path: '\\.(service|routes)\\.ts$' },
    },
    {
      name: 'server-service-imports-routes',
      comment: 'A service must not import routes (HTTP belongs to routes).',
      severity: 'error',
      from: { path: `${SRV}.+\\.service\\.ts$` },
      to: { path: '\\.routes\\.ts$' },
    },
    {
      name: 'server-service-imports-fastify',
      comment: 'Services hold rules, not HTTP: no Fastify in a service.',
      severity: 'error',
      from: { path: `${SRV}.+\\.service\\.ts$` },
      to: { path: 'node_modules/(fastify|@fastify)/' },
    },
    {
      name: 'server-outside-imports-module-routes',
      comment: 'Only app.ts registers module routes; plugins, jobs and adapters must not import them.',
      severity: 'error',
      from: { path: SRV, pathNot: [`${SRV}app\\.ts$`, `${SRV}modules/([^/]+)/`] },
      to: { path: `${SRV}modules/[^/]+/.+\\.routes\\.ts$` },
    },
    {
      name: 'server-module-imports-other-module-internals',
      comment:
        "A module may use another module's service, never its repo or routes. modules/records is the shared " +
        'engine of the four record kinds (insurance, expenses, fuel, revisions), which build on all of it.',
      severity: 'error',
      from: { path: `${SRV}modules/([^/]+)/` },
      to: {
        path: `${SRV}modules/[^/]+/.+\\.(repo|routes)\\.ts$`,
        pathNot: [`${SRV}modules/$1/`, `${SRV}modules/records/`],
      },
    },
    {
      name: 'server-routes-import-repo',
      comment: 'Routes speak HTTP and call a service; only services (and the app that wires them) use repos.',
      severity: 'error',
      from: { path: `${SRV}.+\\.routes\\.ts$` },
      to: { path: '\\.repo\\.ts$' },
    },
    {
      name: 'server-plugin-imports-module',
      comment:
        'Plugins sit below the modules: a plugin declares the interface it needs (auth: authenticate, csrfMatches) ' +
        'and app.ts hands it the module that fits.',
      severity: 'error',
      from: { path: `${SRV}plugins/` },
      to: { path: `${SRV}modules/` },
    },
    {
      name: 'server-sql-outside-repos',
      comment:
        'SQL (drizzle-orm, pg, PGlite) lives in repos (*.repo.ts) and db/. Whole-database tools are the ' +
        'exceptions: backup/ (dump and restore of every table), demo/ (the seed), files/db-file-store.ts ' +
        '(the file store adapter, a repo for file bytes).',
      severity: 'error',
      from: {
        path: SRV,
        pathNot: [
          '\\.repo\\.ts$',
          `${SRV}db/`,
          `${SRV}backup/`,
          `${SRV}demo/`,
          `${SRV}files/db-file-store\\.ts$`,
        ],
      },
      to: { path: 'node_modules/(drizzle-orm|pg|@electric-sql/pglite)/' },
    },
    {
      name: 'server-imports-web',
      comment: 'The server and the web app share code only through packages/domain.',
      severity: 'error',
      from: { path: '^apps/server/' },
      to: { path: '^apps/web/' },
    },
    {
      name: 'web-imports-server',
      comment:
        'The web app never imports server code (benchmark scripts may share the server bench helpers).',
      severity: 'error',
      from: { path: '^apps/web/', pathNot: ['^apps/web/bench/', '^apps/web/e2e/'] },
      to: { path: '^apps/server/' },
    },
    {
      name: 'web-e2e-imports-server',
      comment:
        'End-to-end specs never import server code, with one exception: the OpenID Connect spec starts the same ' +
        "real test provider (panva's oidc-provider) as the server's oidc.test.ts, from apps/server/test/helpers/oidc.ts. " +
        'It is test code run by Node, never bundled into the web app, and oidc-provider is a server dev dependency; ' +
        'a copy would drift from the provider the server tests trust.',
      severity: 'error',
      from: { path: '^apps/web/e2e/' },
      to: { path: '^apps/server/', pathNot: '^apps/server/test/helpers/oidc\\.ts$' },
    },
    {
      name: 'no-file-cycles',
      comment: 'No import cycles between files.',
      severity: 'error',
      from: { path: '^(apps|packages)/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // node_modules is not followed but stays in the graph: the rules on fastify and SQL imports need it.
    // dist-*: the copies of the server the benches build from a commit (bench/scale), not the tree's code.
    exclude: { path: '(^|/)(dist|dist-ssr|dist-[^/]+|drizzle)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};

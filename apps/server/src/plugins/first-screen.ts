import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { acceptedEncoding } from '../lib/encoding.js';

/** The stored user record the web app keeps (apps/web/src/lib/session.ts). */
interface StoredUser {
  id: number;
  username: string;
  email: string;
  role: string;
  language: string;
  offlineLogin: 'true';
}

interface FirstScreen {
  /** The page's route pattern in index.html's list of first pages (its stylesheets). */
  pattern: string;
  html: string;
  queries: unknown;
}

/** What the web build's dist-ssr/ssr.js exports (apps/web/src/ssr.tsx). */
interface FirstScreenModule {
  init(resources: Record<string, { translation: Record<string, unknown> }>): Promise<unknown>;
  rendersPage(pathname: string): boolean;
  render(
    url: string,
    user: StoredUser,
    answer: (path: string) => Promise<Response>,
    wide: boolean,
  ): Promise<FirstScreen | undefined>;
}

const ROOT = /<div id="root">[\s\S]*<\/div>(\s*<\/body>)/;
const APP_SCRIPT = /<script type="module" crossorigin src="([^"]+)"><\/script>/;
const FIRST_PAGES_LIST = /<script type="application\/json" id="first-pages">([\s\S]*?)<\/script>/;

/**
 * A signed-in visit's first load of a page with data (/vehicles, /fuel/{id}, /marketplace) comes with
 * the page already rendered, so a phone shows it before the app's 100 KB script has arrived: the
 * web build's own page code (dist-ssr/ssr.js) renders it here, its data read through this server's
 * API with the visitor's cookie (the same access rules as the app's own requests). The app's script
 * then loads after the first paint (public/start-app.js) and renders over it from the same data.
 * Undefined (index.html as before) for any other request, or without a build of it, or on any failure.
 */
export function firstScreenRenderer(app: FastifyInstance, webDist: string) {
  const modulePath = join(webDist, '..', 'dist-ssr', 'ssr.js');
  if (!existsSync(modulePath)) return undefined;
  // Loaded in the background, and not while the server starts: evaluating the module is ~0.3 s of
  // this thread, which the first requests after a restart would wait for. It loads 2 s after the app
  // is ready, or at the first page a signed-in visitor asks for if that comes sooner; until then
  // pages go out as index.html.
  let loaded: FirstScreenModule | undefined;
  let loading = false;
  const load = () => {
    if (loading) return;
    loading = true;
    import(modulePath)
      .then(async (m: FirstScreenModule) => {
        await m.init(translations(webDist));
        loaded = m;
      })
      .catch((err) => app.log.warn({ err }, 'first-screen render unavailable'));
  };
  let later: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    later = setTimeout(load, 2_000).unref();
  });
  app.addHook('onClose', async () => clearTimeout(later));

  return async (req: FastifyRequest): Promise<string | undefined> => {
    const cookie = req.headers.cookie;
    const pathname = req.url.split('?')[0] ?? '/';
    if (req.method !== 'GET' || !cookie) return undefined;
    if (!loaded) {
      load();
      return undefined;
    }
    if (!loaded.rendersPage(pathname)) return undefined;
    try {
      const get = (url: string) =>
        app.inject({ method: 'GET', url, headers: { cookie, accept: 'application/json' } });
      const me = await get('/api/auth/me');
      if (me.statusCode !== 200) return undefined;
      const user = me.json() as Omit<StoredUser, 'offlineLogin'>;
      const answer = async (url: string) => {
        const res = await get(url);
        const next = res.headers['x-next-cursor'];
        return new Response(res.rawPayload, {
          status: res.statusCode,
          headers: {
            'content-type': String(res.headers['content-type'] ?? 'application/json'),
            // A long record list's first page: the page rendered knows more follow (issue 54).
            ...(next ? { 'x-next-cursor': String(next) } : {}),
          },
        });
      };
      // The app reports the screen's width in a cookie: a desktop's record lists are tables.
      const wide = /(?:^|;\s*)wide=1(?:;|$)/.test(cookie);
      const screen = await loaded.render(req.url, { ...user, offlineLogin: 'true' }, answer, wide);
      return screen && withFirstScreen(readFileSync(join(webDist, 'index.html'), 'utf8'), screen);
    } catch (err) {
      req.log.warn({ err }, 'first-screen render failed: index.html instead');
      return undefined;
    }
  };
}

/**
 * index.html with the page in its root (inert until the app renders over it), its stylesheets, the
 * page's data for the app, and the app's script swapped for the loader that starts it after the
 * first paint.
 */
export function withFirstScreen(index: string, screen: FirstScreen): string | undefined {
  const appScript = APP_SCRIPT.exec(index)?.[1];
  const pages = FIRST_PAGES_LIST.exec(index)?.[1];
  if (!appScript || !pages || !ROOT.test(index)) return undefined;
  const { styles = [] } =
    (JSON.parse(pages) as { pattern: string; styles: string[] }[]).find(
      (p) => p.pattern === screen.pattern,
    ) ?? {};
  const stylesheets = styles.map((href) => `<link rel="stylesheet" crossorigin href="${href}">`).join('');
  // '<' escaped: a text in the data (a car's name) can never close the script element.
  const data = JSON.stringify(screen.queries).replace(/</g, '\\u003c');
  return (
    index
      // early-load.js would download the page's chunk and data again before the first paint.
      .replace(FIRST_PAGES_LIST, '')
      // After the app's own stylesheet, as the app adds them.
      .replace('</head>', () => `${stylesheets}</head>`)
      .replace(APP_SCRIPT, () => `<script src="/start-app.js" data-app="${appScript}" async></script>`)
      .replace(
        ROOT,
        (_all, end: string) =>
          `<div id="root"><div class="first-screen" inert aria-disabled="true">${screen.html}</div></div>` +
          `<script type="application/json" id="first-screen-data">${data}</script>${end}`,
      )
  );
}

/** Sends a rendered page: for this visitor only, compressed (it is built per request). */
export function sendFirstScreen(req: FastifyRequest, reply: FastifyReply, html: string) {
  const encoding = acceptedEncoding(req.headers['accept-encoding']);
  reply
    .header('cache-control', 'private, no-store')
    .header('vary', 'accept-encoding, cookie')
    .type('text/html; charset=utf-8');
  if (encoding === 'br')
    return reply
      .header('content-encoding', 'br')
      .send(brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }));
  if (encoding === 'gzip') return reply.header('content-encoding', 'gzip').send(gzipSync(html));
  return reply.send(html);
}

function translations(webDist: string) {
  const dir = join(webDist, 'locales');
  return Object.fromEntries(
    readdirSync(dir).map((lng) => [
      lng,
      { translation: JSON.parse(readFileSync(join(dir, lng, 'translation.json'), 'utf8')) },
    ]),
  );
}

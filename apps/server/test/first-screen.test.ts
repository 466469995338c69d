import { describe, expect, it } from 'vitest';
import { withFirstScreen } from '../src/plugins/first-screen.js';

// The shape of the built index.html that matters here (apps/web/index.html after the build).
const index = `<!doctype html><html><head>
<script type="application/json" id="first-pages">[{"pattern":"/vehicles","modules":["/assets/V.js"],"styles":["/assets/V.css","/assets/shared.css"],"data":["/api/vehicles"]}]</script>
<script>early-load</script>
<script type="module" crossorigin src="/assets/index-abc.js"></script>
<link rel="stylesheet" crossorigin href="/assets/index.css">
</head>
<body>
<div id="root"><div class="app"><main class="main"><div class="page-loading"></div></main></div></div>
</body></html>`;

const screen = {
  pattern: '/vehicles',
  html: '<div class="app"><h1>Vehicles</h1></div>',
  queries: {
    queries: [{ queryKey: ['vehicles'], state: { data: [{ model: '</script><script>alert(1)</script>' }] } }],
  },
};

describe('a first page rendered by the server', () => {
  const page = withFirstScreen(index, screen) ?? '';

  it('carries the page in the root, inert until the app renders over it, instead of the placeholder', () => {
    expect(page).toContain(
      '<div id="root"><div class="first-screen" inert aria-disabled="true"><div class="app"><h1>Vehicles</h1></div></div></div>',
    );
    expect(page).not.toContain('page-loading');
  });

  it('starts the app after the first paint, and does not have early-load fetch the page again', () => {
    expect(page).toContain('<script src="/start-app.js" data-app="/assets/index-abc.js" async></script>');
    expect(page).not.toContain('type="module"');
    expect(page).not.toContain('id="first-pages"');
    expect(page).toContain('<script>early-load</script>');
  });

  it('links the page’s own stylesheets after the app’s, as the app would', () => {
    const app = page.indexOf('/assets/index.css');
    expect(page.indexOf('<link rel="stylesheet" crossorigin href="/assets/V.css">')).toBeGreaterThan(app);
    expect(page.indexOf('<link rel="stylesheet" crossorigin href="/assets/shared.css">')).toBeGreaterThan(
      app,
    );
  });

  it('hands the data over as JSON that no text in it can close', () => {
    const data = /<script type="application\/json" id="first-screen-data">([\s\S]*?)<\/script>/.exec(
      page,
    )?.[1];
    expect(data).toBeDefined();
    expect(data).not.toContain('</script>');
    expect(JSON.parse(data ?? '')).toEqual(screen.queries);
  });

  it('is not made from an index.html of another shape (index.html then goes out as it is)', () => {
    expect(withFirstScreen(index.replace('type="module" ', ''), screen)).toBeUndefined();
    expect(withFirstScreen(index.replace('id="root"', 'id="app"'), screen)).toBeUndefined();
  });
});

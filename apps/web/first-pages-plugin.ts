import { readFileSync } from 'node:fs';
import type { Plugin, Rolldown } from 'vite';
import { FIRST_PAGES, FIRST_PAGES_ELEMENT_ID, type FirstPageFiles } from './src/app/first-pages';

type OutputBundle = Rolldown.OutputBundle;
type OutputChunk = Rolldown.OutputChunk;

/**
 * Writes the first pages' built files into index.html (a JSON script element), so that
 * public/theme-init.js can start the current page's chunk, its CSS and its data downloading beside
 * the app's script, instead of after the script has run (Lighthouse: the chain HTML → index.js →
 * page chunk → data was the first screen's render delay).
 */
export function firstPagesPlugin(): Plugin {
  return {
    name: 'evdra-first-pages',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        if (!ctx.bundle || !ctx.chunk) return;
        const files = firstPageFiles(ctx.bundle, ctx.chunk);
        return [
          {
            tag: 'script',
            attrs: { type: 'application/json', id: FIRST_PAGES_ELEMENT_ID },
            children: JSON.stringify(files).replaceAll('<', '\\u003c'),
            injectTo: 'head',
          },
        ];
      },
    },
  };
}

const THEME_INIT_TAG = '<script src="/theme-init.js"></script>';

/**
 * Puts public/theme-init.js into the built index.html: it then runs as the page is parsed instead of
 * after one more round trip, and so do the first page's downloads it starts (and the shell paints
 * sooner: the file blocked the parser). The server allows it by its hash (CSP, plugins/security.ts).
 */
export function inlineThemeInitPlugin(): Plugin {
  return {
    name: 'evdra-inline-theme-init',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        if (!html.includes(THEME_INIT_TAG))
          throw new Error('inline-theme-init: index.html has no theme-init tag');
        const code = readFileSync(new URL('./public/theme-init.js', import.meta.url), 'utf8');
        return html.replace(
          THEME_INIT_TAG,
          () => `<script>${code.replaceAll('</script', '<\\/script')}</script>`,
        );
      },
    },
  };
}

function firstPageFiles(bundle: OutputBundle, entry: OutputChunk): FirstPageFiles[] {
  const chunks = Object.values(bundle).filter((c): c is OutputChunk => c.type === 'chunk');
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  // What the entry already loads (Vite preloads its static imports itself).
  const loaded = staticClosure(entry, byFile);
  return FIRST_PAGES.map((page) => {
    // The chunk holding the page's module (its own, or a group's).
    const chunk = chunks.find((c) =>
      c.moduleIds.some((id) => id.replaceAll('\\', '/').endsWith(`/src/${page.module}`)),
    );
    if (!chunk) throw new Error(`first-pages: no chunk for ${page.module}`);
    const needed = [...staticClosure(chunk, byFile)].filter((c) => !loaded.has(c));
    return {
      pattern: page.pattern,
      modules: needed.map((c) => `/${c.fileName}`),
      styles: needed.flatMap((c) => [...(c.viteMetadata?.importedCss ?? [])].map((f) => `/${f}`)),
      data: page.data,
    };
  });
}

/** A chunk and every chunk it imports statically, transitively. */
function staticClosure(root: OutputChunk, byFile: Map<string, OutputChunk>): Set<OutputChunk> {
  const seen = new Set<OutputChunk>();
  const visit = (c: OutputChunk) => {
    if (seen.has(c)) return;
    seen.add(c);
    for (const f of c.imports) {
      const dep = byFile.get(f);
      if (dep) visit(dep);
    }
  };
  visit(root);
  return seen;
}

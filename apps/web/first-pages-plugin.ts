import { readFileSync } from 'node:fs';
import type { Plugin, Rolldown } from 'vite';
import { FIRST_PAGES, FIRST_PAGES_ELEMENT_ID, type FirstPageFiles } from './src/app/first-pages';

type OutputBundle = Rolldown.OutputBundle;
type OutputChunk = Rolldown.OutputChunk;

const EARLY_LOAD_TAG = '<script src="/early-load.js"></script>';

/**
 * Writes the first pages' built files into index.html (a JSON script element just before
 * public/early-load.js), so that script can start the current page's chunk, its CSS and its data
 * downloading beside the app's script, instead of after the script has run (Lighthouse: the chain
 * HTML → index.js → page chunk → data was the first screen's render delay).
 */
export function firstPagesPlugin(): Plugin {
  return {
    name: 'evdra-first-pages',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (!ctx.bundle || !ctx.chunk) return;
        if (!html.includes(EARLY_LOAD_TAG)) throw new Error('first-pages: index.html has no early-load tag');
        const files = JSON.stringify(firstPageFiles(ctx.bundle, ctx.chunk)).replaceAll('<', '\\u003c');
        const list = `<script type="application/json" id="${FIRST_PAGES_ELEMENT_ID}">${files}</script>`;
        return html.replace(EARLY_LOAD_TAG, () => `${list}\n    ${EARLY_LOAD_TAG}`);
      },
    },
  };
}

/**
 * Puts public/early-load.js and public/theme-init.js into the built index.html: they then run as the
 * page is parsed instead of after one more round trip each, and so do the first page's downloads
 * early-load starts (and the shell paints sooner: the files blocked the parser). The server allows
 * them by their hashes (CSP, plugins/security.ts). Must run after firstPagesPlugin.
 */
export function inlineScriptsPlugin(): Plugin {
  return {
    name: 'evdra-inline-scripts',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        for (const file of ['early-load.js', 'theme-init.js']) {
          const tag = `<script src="/${file}"></script>`;
          if (!html.includes(tag)) throw new Error(`inline-scripts: index.html has no ${file} tag`);
          const code = readFileSync(new URL(`./public/${file}`, import.meta.url), 'utf8');
          html = html.replace(tag, () => `<script>${code.replaceAll('</script', '<\\/script')}</script>`);
        }
        return html;
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
      ...(page.images ? { images: page.images } : {}),
      ...(page.snapshot ? { snapshot: page.snapshot } : {}),
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

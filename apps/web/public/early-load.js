// Runs first, at the top of index.html's <head>: before the stylesheet, which holds back any script
// after it until it has arrived, so these downloads start one stylesheet's download sooner.
//
// The first translation file starts downloading now, beside the app's script, instead of after it
// has run (lib/i18n.ts fetches the same URL and gets this response). Same choice as detectLanguage():
// localStorage `language`, else the first supported browser language, else English.
try {
  const supported = ['en', 'ro', 'es'];
  let lng = null;
  try {
    lng = localStorage.getItem('language');
  } catch (_e) {
    // storage unavailable: the browser's languages decide
  }
  if (!supported.includes(lng)) {
    const tags = navigator.languages || [navigator.language];
    lng = tags.map((t) => String(t).toLowerCase().split('-')[0]).find((l) => supported.includes(l)) || 'en';
  }
  const link = document.createElement('link');
  link.rel = 'preload';
  link.as = 'fetch';
  link.crossOrigin = 'anonymous';
  link.href = `/locales/${lng}/translation.json`;
  document.head.appendChild(link);
} catch (_e) {
  // no preload: the app fetches the file itself
}

// The first page's chunk, its CSS and (signed in) its first data start downloading now, beside the
// app's script, instead of after it has run. index.html lists them (vite.config.ts, firstPagesPlugin;
// src/app/first-pages.ts); lib/api.ts takes each early answer once, for the same URL.
/**
 * At a roadside stop the photo is what counts (issue 52): it goes into the shell as soon as the HTML
 * is parsed, before the app's script has run (on a slow phone, most of the first second); the app
 * then renders its page over it with the same image, already decoded. Gone if it fails to load.
 */
function showInShell(src) {
  const show = () => {
    const main = document.querySelector('#root main');
    if (document.readyState !== 'interactive' || !main) return;
    document.removeEventListener('readystatechange', show);
    const img = document.createElement('img');
    img.className = 'document__page';
    img.dataset.early = 'true';
    img.alt = '';
    img.style.cssText = 'display:block;width:calc(100% - 2rem);height:auto;margin:1rem;border-radius:6px';
    img.onerror = () => img.remove();
    img.src = src;
    main.replaceChildren(img);
  };
  document.addEventListener('readystatechange', show);
}

/**
 * A page's first screen as it last rendered (the Papers screen: lib/offline/papers-shell.ts), for
 * the signed-in user it was kept for: into the shell once the HTML is parsed, with the page's styles
 * applied (not only preloaded). A preview the device lacks is hidden rather than shown broken.
 */
function showSnapshot(key, styles, preload) {
  let kept = null;
  try {
    const user = JSON.parse(localStorage.getItem('user'));
    kept = JSON.parse(localStorage.getItem(key));
    if (!user || !kept || kept.userId !== user.id || typeof kept.html !== 'string') return false;
  } catch (_e) {
    return false;
  }
  for (const href of styles) preload('stylesheet', href);
  // Parsed now (inert until shown), so its previews start downloading before the body is parsed.
  const page = document.createElement('template');
  page.innerHTML = kept.html;
  for (const img of page.content.querySelectorAll('img')) {
    const src = img.getAttribute('src');
    if (src) preload('preload', src, 'image');
    img.addEventListener('error', () => {
      img.style.visibility = 'hidden';
    });
  }
  const show = () => {
    const main = document.querySelector('#root main');
    if (document.readyState !== 'interactive' || !main) return;
    document.removeEventListener('readystatechange', show);
    main.replaceChildren(page.content);
    performance.mark('evdra:shell'); // bench:papers (BENCH_DETAIL)
  };
  document.addEventListener('readystatechange', show);
  return true;
}

try {
  const list = document.getElementById('first-pages');
  const pages = list ? JSON.parse(list.textContent) : [];
  const parts = location.pathname.replace(/\/+$/, '').split('/');
  const preload = (rel, href, as) => {
    const link = document.createElement('link');
    link.rel = rel;
    link.href = href;
    if (as) link.as = as;
    document.head.appendChild(link);
  };
  for (const page of pages) {
    const pattern = page.pattern.replace(/\/+$/, '').split('/');
    const params = {};
    const matches =
      pattern.length === parts.length &&
      pattern.every((p, i) => {
        if (!p.startsWith(':')) return p === parts[i];
        params[p.slice(1)] = parts[i];
        return /^[1-9][0-9]*$/.test(parts[i]);
      });
    if (!matches) continue;
    for (const href of page.modules) preload('modulepreload', href);
    const shown =
      localStorage.getItem('user') !== null &&
      page.snapshot &&
      showSnapshot(page.snapshot, page.styles, preload);
    if (!shown) for (const href of page.styles) preload('preload', href, 'style');
    const fill = (template) => template.replace(/:([A-Za-z]+)/g, (_m, name) => params[name]);
    if (localStorage.getItem('user') !== null) {
      // A document's first page, when the link says it is a photo: the <img> asks for the same URL.
      if (page.images && new URLSearchParams(location.search).get('image') === '1') {
        for (const template of page.images) preload('preload', fill(template), 'image');
        showInShell(fill(page.images[0]));
      }
      const early = new Map();
      for (const template of page.data) {
        const url = fill(template);
        const answer = fetch(url, { headers: { Accept: 'application/json' }, credentials: 'include' });
        answer.catch(() => undefined); // a failure is the app's to report, when it takes this answer
        early.set(url, answer);
      }
      window.__evdraEarly = { at: Date.now(), answers: early };
    }
    break;
  }
} catch (_e) {
  // no early downloads: the app asks for everything itself
}

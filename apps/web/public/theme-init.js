// Runs before the app: applies localStorage darkMode ('true'/'false') as the body class `dark-mode`;
// with no choice stored yet, the system's preference (the app's theme.ts keeps the same rule).
try {
  const stored = localStorage.getItem('darkMode');
  const dark = stored === null ? matchMedia('(prefers-color-scheme: dark)').matches : stored === 'true';
  if (dark) document.body.classList.add('dark-mode');
} catch (_e) {
  // storage unavailable: light mode
}

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

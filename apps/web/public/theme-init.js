// Runs before the app: applies localStorage darkMode ('true'/'false') as the body class `dark-mode`;
// with no choice stored yet, the system's preference (the app's theme.ts keeps the same rule).
try {
  const stored = localStorage.getItem('darkMode');
  const dark = stored === null ? matchMedia('(prefers-color-scheme: dark)').matches : stored === 'true';
  if (dark) document.body.classList.add('dark-mode');
} catch (_e) {
  // storage unavailable: light mode
}

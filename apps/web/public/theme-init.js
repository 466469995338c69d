// Runs before the app: applies localStorage darkMode ('true'/'false') as the body class `dark-mode`.
try {
  if (localStorage.getItem('darkMode') === 'true') document.body.classList.add('dark-mode');
} catch (_e) {
  // storage unavailable: light mode
}

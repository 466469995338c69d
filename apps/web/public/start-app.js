// On a page the server rendered (its first screen is already in the HTML), the app's script starts
// downloading once that screen has been painted, so a phone shows the page before the script
// arrives. The server writes this tag in place of the app's own (server: first-screen.ts).
(() => {
  const src = document.currentScript?.dataset.app;
  if (!src) return;
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    const script = document.createElement('script');
    script.type = 'module';
    script.crossOrigin = '';
    script.src = src;
    document.head.appendChild(script);
  };
  try {
    new PerformanceObserver((list) => {
      if (list.getEntriesByName('first-contentful-paint').length > 0) setTimeout(start);
    }).observe({ type: 'paint', buffered: true });
  } catch (_e) {
    start(); // no paint timing: at once
  }
  // A hidden tab paints nothing: start anyway.
  setTimeout(start, 1000);
})();

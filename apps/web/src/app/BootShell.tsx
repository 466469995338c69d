/**
 * What shows before the app has its translations: the top bar's brand and a loading bar, in the
 * same boxes as the real shell (no layout shift). index.html carries this same markup, painted
 * before any script has run (BootShell.test.tsx keeps the two equal).
 */
export function BootShell() {
  return (
    <div className="app">
      <header className="topbar">
        <div className="topbar__inner">
          <a href="/" className="brand">
            <img src="/favicon.svg" alt="" width={28} height={28} />
            <span>Evdra</span>
          </a>
        </div>
      </header>
      <main className="main">
        <div className="page-loading">
          <div className="loading-bar" />
        </div>
      </main>
    </div>
  );
}

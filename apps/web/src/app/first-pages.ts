import { PAPERS_SHELL_KEY } from '../lib/offline/papers-shell';

/**
 * The pages a visit most often starts on (the installed app opens /vehicles), and what each one's
 * first screen needs: its chunk (`module`, under src/) and, for a signed-in user, its first data.
 *
 * The build (vite.config.ts, firstPagesPlugin) writes this list into index.html with the chunks'
 * file names, and public/early-load.js starts those downloads while the app's own script is still
 * arriving. `data` must be exactly the URLs the page's `prefetch` asks for (first-pages.test.ts):
 * lib/api.ts uses each early answer once, for the first request to the same URL.
 */
export interface FirstPage {
  /** A route pattern; `:name` segments are ids (digits only). */
  pattern: string;
  module: string;
  data: string[];
  /**
   * Images the first screen shows, asked for with the page's files when the address says the first
   * one is a photo (`?image=1`, as the Papers screen's links do): a document's first page.
   */
  images?: string[];
  /**
   * The localStorage key under which the page keeps its last first screen for the shell
   * (lib/offline/papers-shell.ts): early-load.js shows it, with the page's styles, before the app runs.
   */
  snapshot?: string;
  /**
   * True: with no network the service worker still answers its data (the offline wallet), so the
   * first render waits for it then too (app/routes.tsx) rather than showing a loading bar first.
   */
  answeredOffline?: true;
  /**
   * False: never rendered by the server (ssr.tsx), only started early. The papers are opened from
   * the installed app, whose service worker answers with index.html, not the server's render.
   */
  serverRendered?: false;
}

export const FIRST_PAGES: FirstPage[] = [
  { pattern: '/', module: 'features/home/pages/HomePage.tsx', data: [] },
  { pattern: '/vehicles', module: 'features/vehicles/pages/VehiclesPage.tsx', data: ['/api/vehicles'] },
  {
    pattern: '/fuel/:vehicleId',
    module: 'features/records/pages/FuelPage.tsx',
    data: ['/api/vehicles/:vehicleId', '/api/fuel-consumptions/vehicle/:vehicleId?limit=100'],
  },
  {
    pattern: '/marketplace',
    module: 'features/marketplace/pages/MarketplacePage.tsx',
    data: ['/api/marketplace/listings?limit=48'],
  },
  // The car's papers at a roadside stop (issue 52), often with no signal: the service worker answers.
  {
    pattern: '/papers',
    module: 'features/documents/pages/PapersPage.tsx',
    data: ['/api/vehicles'],
    snapshot: PAPERS_SHELL_KEY,
    answeredOffline: true,
    serverRendered: false,
  },
  {
    pattern: '/papers/:vehicleId/:docId',
    module: 'features/documents/pages/DocumentPage.tsx',
    data: ['/api/vehicles/:vehicleId/documents'],
    images: ['/api/vehicles/:vehicleId/documents/:docId/file'],
    answeredOffline: true,
    serverRendered: false,
  },
];

/** What index.html carries for early-load.js: each first page with its built files. */
export interface FirstPageFiles {
  pattern: string;
  modules: string[];
  styles: string[];
  data: string[];
  images?: string[];
  snapshot?: string;
}

/** The `<script type="application/json">` id early-load.js reads. */
export const FIRST_PAGES_ELEMENT_ID = 'first-pages';

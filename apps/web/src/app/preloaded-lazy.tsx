import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

/** A page chunk that preloadFirstPage may fetch before the first render (see `Preloaded`). */
export interface PreloadablePage<M extends { default: ComponentType }> {
  load: () => Promise<M>;
  lazy: LazyExoticComponent<ComponentType>;
  /** The module, once it has arrived. */
  loaded?: M;
}

export function preloadable<M extends { default: ComponentType }>(
  loader: () => Promise<M>,
): PreloadablePage<M> {
  const page: PreloadablePage<M> = {
    load: () =>
      loader().then((module) => {
        page.loaded = module;
        return module;
      }),
    lazy: lazy(() => page.load()),
  };
  return page;
}

/**
 * The page as React.lazy, rendered at once when its module has already arrived (the first page's,
 * fetched by preloadFirstPage). lazy() alone suspends on its first render even then: its fallback
 * commits, and React holds the page back for 300 ms (its fallback throttle).
 */
export function Preloaded<M extends { default: ComponentType }>({ page }: { page: PreloadablePage<M> }) {
  const Page = page.loaded?.default ?? page.lazy;
  return <Page />;
}

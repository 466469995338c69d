import { startTransition, useEffect, useState } from 'react';

/**
 * Items rendered with the first screen: a phone shows about three cards, a desktop table a dozen
 * rows. Every card before the first paint delays it: a car's fuel screen on a phone had 568 elements
 * when its title first painted with 12 cards, 264 with 4. The server's render of a page (ssr.tsx)
 * stops there too: it runs no effects.
 */
export const FIRST_CARDS = 4;
export const FIRST_TABLE_ROWS = 12;

/**
 * How many items to render: the first `first` with the data, the rest in a transition right after.
 * A query's answer renders synchronously (useSyncExternalStore), so 60 cards at once were one long
 * task that froze a phone (Lighthouse TBT); a transition yields between cards.
 */
export function useProgressiveLength(length: number, first: number): number {
  const [shown, setShown] = useState(first);
  useEffect(() => {
    if (shown < length) startTransition(() => setShown(length));
  }, [length, shown]);
  return Math.min(length, Math.max(shown, first));
}

import type { ReactNode } from 'react';

/** Link to the GDPR agreement, opened in a new tab (spec §2). Children come from the translation. */
export function GdprLink({ children }: { children?: ReactNode }) {
  return (
    <a href="/gdpr" target="_blank" rel="noopener">
      {children}
    </a>
  );
}

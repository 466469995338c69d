import type { ReactNode } from 'react';

/** A block of an analytics page, named by its `h2`. */
export function AnalyticsSection({
  id,
  title,
  children,
}: {
  id: string;
  title: string;
  children: ReactNode;
}) {
  return (
    <section className="analytics__section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

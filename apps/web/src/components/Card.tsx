import type { ReactNode } from 'react';

interface PageCardProps {
  title: ReactNode;
  children: ReactNode;
  actions?: ReactNode;
  narrow?: boolean;
}

/** A page's main card with its title (the page's h1). */
export function PageCard({ title, children, actions, narrow }: PageCardProps) {
  return (
    <section className={`card page-card${narrow ? ' page-card--narrow' : ''}`}>
      <header className="card__header">
        <h1 className="card__title">{title}</h1>
        {actions ? <div className="card__actions">{actions}</div> : null}
      </header>
      {children}
    </section>
  );
}

export function Alert({ tone, children }: { tone: 'error' | 'success' | 'info'; children: ReactNode }) {
  return (
    <div className={`alert alert--${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}

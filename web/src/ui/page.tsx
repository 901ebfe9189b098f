import { type ReactNode, useEffect } from 'react';

/** A titled block's props: its heading, the controls beside it, and what it holds. */
interface Titled {
  title: string;
  actions?: ReactNode;
  children: ReactNode;
}

/** A page: its heading (also the document title) and, beside it, the page's main controls. */
export function Page({ title, actions, children }: Titled) {
  useEffect(() => {
    document.title = `${title} · Vigil`;
  }, [title]);
  return (
    <section className="page" aria-labelledby="page-title">
      <header className="page-head">
        <h1 id="page-title">{title}</h1>
        {actions ? <div className="page-actions">{actions}</div> : null}
      </header>
      {children}
    </section>
  );
}

/** A titled block inside a page. */
export function Section({ title, actions, children }: Titled) {
  return (
    <section className="card">
      <header className="card-head">
        <h2>{title}</h2>
        {actions ? <div className="card-actions">{actions}</div> : null}
      </header>
      {children}
    </section>
  );
}

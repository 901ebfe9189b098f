import type { ReactNode } from 'react';
import { ApiError } from '../api/client';

/** What went wrong, in words: the API's `{error, code}` (and its details), or any other failure. */
export function ErrorNote({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  const api = error instanceof ApiError ? error : undefined;
  const message = api ? api.message : error instanceof Error ? error.message : String(error);
  return (
    <div className="note note-error" role="alert">
      <strong>{title ?? 'That did not work.'}</strong> <span>{message}</span>
      {api ? <span className="code"> ({api.code})</span> : null}
      {api && api.details.length > 0 ? (
        <ul>
          {api.details.map((d) => (
            <li key={`${d.path}:${d.message}`}>
              {d.path ? <code>{d.path}</code> : null} {d.message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** A success or information line, announced to screen readers. */
export function Notice({ children }: { children: ReactNode }) {
  return (
    <div className="note note-ok" role="status">
      {children}
    </div>
  );
}

/** What an empty list says, and what to do about it. */
export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty">
      <p className="empty-title">{title}</p>
      {children ? <div className="empty-body">{children}</div> : null}
    </div>
  );
}

/** A loading line (announced politely). */
export function Loading({ what }: { what?: string }) {
  return (
    <p className="loading" role="status" aria-live="polite">
      Loading{what ? ` ${what}` : ''}…
    </p>
  );
}

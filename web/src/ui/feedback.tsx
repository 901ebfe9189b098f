import { type ReactNode, type RefObject, useLayoutEffect, useRef, useState } from 'react';
import { ApiError } from '../api/client';

/** A text as a sentence: a capital first letter and a full stop (the API's own texts may lack both). */
export function asSentence(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '') return trimmed;
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?…)]$/.test(capital) ? capital : `${capital}.`;
}

/** A text as compared: one sentence, spaces squeezed (a field may show the API's words as they came). */
const squeeze = (text: string | null) => asSentence((text ?? '').replace(/\s+/g, ' '));

/**
 * Which of `messages` the form around `note` already shows at a field (a `.field-error`, as
 * ui/fields.tsx draws them). Read from the page rather than declared by each form, so the note can
 * never hide a message that no field shows. A layout effect: the note is settled before it paints.
 */
function useShownAtFields(note: RefObject<HTMLElement | null>, messages: readonly string[]) {
  const [shown, setShown] = useState<readonly string[]>([]);
  useLayoutEffect(() => {
    const scope = note.current?.closest('form') ?? note.current?.parentElement;
    const texts = new Set(
      [...(scope?.querySelectorAll('.field-error') ?? [])].map((e) => squeeze(e.textContent)),
    );
    const next = messages.filter((m) => texts.has(squeeze(m)));
    setShown((prev) => (prev.join('\n') === next.join('\n') ? prev : next));
  });
  return shown;
}

/**
 * What went wrong, in words, once. A VALIDATION_ERROR's details already shown at their fields are
 * left there, and the note only says to fix the marked fields; a detail no field shows is said
 * here as its sentence. No machine code and no field name (unless `showPaths`): they are for
 * programs, not for the person filling in the form.
 */
export function ErrorNote({
  error,
  title,
  showPaths = false,
}: {
  error: unknown;
  title?: string;
  /** Name each detail's path: for a form that is a JSON document, whose keys are the user's own words. */
  showPaths?: boolean;
}) {
  const note = useRef<HTMLDivElement>(null);
  const api = error instanceof ApiError ? error : undefined;
  // A refusal without details (a taken slug, say) may be shown at a field too.
  const details = api ? (api.details.length > 0 ? api.details : [{ path: '', message: api.message }]) : [];
  const shown = useShownAtFields(
    note,
    details.map((d) => d.message),
  );
  if (!error) return null;
  let said: ReactNode;
  if (api) {
    const unshown = details.filter((d) => !shown.includes(d.message));
    const elsewhere = [
      ...new Set(unshown.map((d) => (showPaths && d.path ? `${d.path}: ` : '') + asSentence(d.message))),
    ];
    const marked = details.length - unshown.length;
    const fix = marked === 0 ? '' : marked === 1 ? 'Fix the marked field.' : 'Fix the marked fields.';
    said =
      elsewhere.length > 1 ? (
        <>
          {fix ? <span>{fix}</span> : null}
          <ul>
            {elsewhere.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        </>
      ) : (
        <span>{[fix, ...elsewhere].filter(Boolean).join(' ')}</span>
      );
  } else {
    said = <span>{asSentence(error instanceof Error ? error.message : String(error))}</span>;
  }
  return (
    <div className="note note-error" role="alert" ref={note}>
      <strong>{title ?? 'That did not work.'}</strong> {said}
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

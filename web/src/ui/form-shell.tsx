import type { FormEvent, ReactNode, Ref } from 'react';
import { ErrorNote } from './feedback';

/**
 * The console's one form shell: a named form (its heading too, unless `heading` is false) that
 * validates at the server by default (noValidate: the API's sentences show at each field), its
 * fields in a grid, what the send refused as a note, and the submit button (busy while the send
 * is pending) with any other buttons beside it.
 */
export function FormShell({
  title,
  heading = true,
  onSubmit,
  send,
  disabled = false,
  submitLabel,
  failed,
  buttons,
  before,
  after,
  grid = true,
  done,
  primary = true,
  browserChecks = false,
  className,
  ref,
  children,
}: {
  /** The form's name (and heading). */
  title: string;
  /** The heading: the title by default, other words where the page around says the rest, or none. */
  heading?: ReactNode;
  /** Called on submit (the send's own mutate by default); the browser's own submission is prevented. */
  onSubmit?: () => void;
  /**
   * The send (a mutation): busy while pending, its error said under the fields as `failed`; a
   * form without `onSubmit` submits by calling its mutate with no variables.
   */
  send: { isPending: boolean; error: unknown; mutate?: (...variables: never[]) => void };
  /** The submit button is off for another reason too (nothing chosen yet). */
  disabled?: boolean;
  submitLabel: ReactNode;
  failed: string;
  /** Buttons after the submit button (Cancel, a second action). */
  buttons?: ReactNode;
  /** What stands between the heading and the fields (an introduction, what the last send did). */
  before?: ReactNode;
  /** What stands between the fields and the error note (a hint, a preview). */
  after?: ReactNode;
  /** The fields in the two-column grid; false where they lay themselves out (fieldsets, steps). */
  grid?: boolean;
  /** The submit button is the page's main one (false: a plain button, for a form among many). */
  primary?: boolean;
  /** The browser checks required fields before sending (a form whose server says too little). */
  browserChecks?: boolean;
  /** What the last send did (a notice), under the error note. */
  done?: ReactNode;
  className?: string;
  ref?: Ref<HTMLFormElement>;
  children: ReactNode;
}) {
  const submit = (e: FormEvent) => {
    e.preventDefault();
    (onSubmit ?? send.mutate)?.();
  };
  return (
    <form ref={ref} aria-label={title} onSubmit={submit} noValidate={!browserChecks} className={className}>
      {heading === false ? null : <h3>{heading === true ? title : heading}</h3>}
      {before}
      {grid ? <div className="form-grid">{children}</div> : children}
      {after}
      <ErrorNote error={send.error} title={failed} />
      {done}
      <div className="row">
        <button
          type="submit"
          className={primary ? 'primary' : undefined}
          disabled={send.isPending || disabled}
        >
          {submitLabel}
        </button>
        {buttons}
      </div>
    </form>
  );
}

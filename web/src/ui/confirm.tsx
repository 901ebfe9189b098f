import { useRef, useState } from 'react';
import { ErrorNote } from './feedback';

/**
 * A destructive action that asks first: the button opens a modal dialog (native <dialog>, so focus
 * and Escape behave) with the question; only its confirm button runs `onConfirm`.
 */
export function ConfirmButton({
  label,
  question,
  confirmLabel,
  onConfirm,
  disabled,
}: {
  label: string;
  question: string;
  confirmLabel?: string;
  onConfirm: () => unknown;
  disabled?: boolean;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
    } finally {
      setBusy(false);
      dialog.current?.close();
    }
  };
  return (
    <>
      <button
        type="button"
        className="danger"
        disabled={disabled}
        onClick={() => dialog.current?.showModal()}
      >
        {label}
      </button>
      <dialog ref={dialog} className="confirm" aria-label={label}>
        <p>{question}</p>
        <div className="row">
          <button type="button" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
          <button type="button" className="danger" disabled={busy} onClick={confirm}>
            {confirmLabel ?? label}
          </button>
        </div>
      </dialog>
    </>
  );
}

/**
 * A table row's Edit and Delete (the delete asks first, then `changed` refreshes the list whatever
 * happened; a refusal shows below the buttons): the Maintenance and Status pages tables.
 */
export function EditDeleteActions({
  name,
  question,
  onEdit,
  remove,
  changed,
  notDeleted,
}: {
  name: string;
  question: string;
  onEdit: () => void;
  remove: () => Promise<unknown>;
  changed: () => Promise<unknown>;
  notDeleted: string;
}) {
  const [error, setError] = useState<unknown>();
  const run = async () => {
    setError(undefined);
    try {
      await remove();
    } catch (err) {
      setError(err);
    }
    await changed();
  };
  return (
    <>
      <div className="row">
        <button type="button" onClick={onEdit}>
          Edit {name}
        </button>
        <ConfirmButton label={`Delete ${name}`} question={question} confirmLabel="Delete" onConfirm={run} />
      </div>
      <ErrorNote error={error} title={notDeleted} />
    </>
  );
}

import { useRef, useState } from 'react';

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

import { type ReactNode, useId } from 'react';

/**
 * Labelled form fields that show their validation error at the field (aria-invalid and
 * aria-describedby point at it), and an optional hint.
 */

interface Common {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  required?: boolean;
}

function Described({ id, error, hint }: { id: string; error?: string | undefined; hint?: ReactNode }) {
  return (
    <>
      {hint ? (
        <span className="hint" id={`${id}-hint`}>
          {hint}
        </span>
      ) : null}
      {error ? (
        <span className="field-error" id={`${id}-error`}>
          {error}
        </span>
      ) : null}
    </>
  );
}

function describedBy(id: string, error?: string, hint?: ReactNode): string | undefined {
  const ids = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean);
  return ids.length > 0 ? ids.join(' ') : undefined;
}

/** A text-like input (text, number, url, email, password, datetime-local). */
export function TextField({
  label,
  error,
  hint,
  required,
  value,
  onChange,
  type = 'text',
  name,
  placeholder,
  autoComplete,
  disabled,
}: Common & {
  value: string;
  onChange: (value: string) => void;
  type?: string;
  name?: string;
  placeholder?: string;
  autoComplete?: string;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>
        {label}
        {required ? <span aria-hidden="true"> *</span> : null}
      </label>
      <input
        id={id}
        name={name}
        type={type}
        value={value}
        required={required}
        placeholder={placeholder}
        autoComplete={autoComplete}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        onChange={(e) => onChange(e.target.value)}
      />
      <Described id={id} error={error} hint={hint} />
    </div>
  );
}

/** A multi-line text input. */
export function TextAreaField({
  label,
  error,
  hint,
  required,
  value,
  onChange,
  rows = 4,
  name,
}: Common & { value: string; onChange: (value: string) => void; rows?: number; name?: string }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>
        {label}
        {required ? <span aria-hidden="true"> *</span> : null}
      </label>
      <textarea
        id={id}
        name={name}
        rows={rows}
        value={value}
        required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        onChange={(e) => onChange(e.target.value)}
      />
      <Described id={id} error={error} hint={hint} />
    </div>
  );
}

/** A select from fixed options. */
export function SelectField({
  label,
  error,
  hint,
  required,
  value,
  onChange,
  options,
  name,
}: Common & {
  value: string;
  onChange: (value: string) => void;
  options: readonly (string | { value: string; label: string })[];
  name?: string;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>
        {label}
        {required ? <span aria-hidden="true"> *</span> : null}
      </label>
      <select
        id={id}
        name={name}
        value={value}
        required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        onChange={(e) => onChange(e.target.value)}
      >
        {options.map((o) => {
          const opt = typeof o === 'string' ? { value: o, label: o } : o;
          return (
            <option key={opt.value} value={opt.value}>
              {opt.label}
            </option>
          );
        })}
      </select>
      <Described id={id} error={error} hint={hint} />
    </div>
  );
}

/** A checkbox with its label after it. */
export function CheckboxField({
  label,
  error,
  hint,
  checked,
  onChange,
  name,
}: Common & { checked: boolean; onChange: (checked: boolean) => void; name?: string }) {
  const id = useId();
  return (
    <div className="field field-check">
      <input
        id={id}
        name={name}
        type="checkbox"
        checked={checked}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        onChange={(e) => onChange(e.target.checked)}
      />
      <label htmlFor={id}>{label}</label>
      <Described id={id} error={error} hint={hint} />
    </div>
  );
}

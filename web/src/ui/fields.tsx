import { type ReactNode, useId } from 'react';
import { asSentence } from './feedback';

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
          {asSentence(error)}
        </span>
      ) : null}
    </>
  );
}

function describedBy(id: string, error?: string, hint?: ReactNode): string | undefined {
  const ids = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean);
  return ids.length > 0 ? ids.join(' ') : undefined;
}

/** The attributes that tie a control to its label, hint and error. */
function controlProps(id: string, { error, hint, required }: Common) {
  return {
    id,
    required,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy(id, error, hint),
  };
}

/** A field laid out as its label (with the required mark), the control, then its hint and error. */
function Labelled({ id, field, children }: { id: string; field: Common; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>
        {field.label}
        {field.required ? <span aria-hidden="true"> *</span> : null}
      </label>
      {children}
      <Described id={id} error={field.error} hint={field.hint} />
    </div>
  );
}

/** A text-like input (text, number, url, email, password, datetime-local). */
export function TextField({
  value,
  onChange,
  type = 'text',
  name,
  placeholder,
  autoComplete,
  disabled,
  list,
  ...field
}: Common & {
  value: string;
  onChange: (value: string) => void;
  type?: string;
  name?: string;
  placeholder?: string;
  autoComplete?: string;
  disabled?: boolean;
  /** The id of a <datalist> of suggestions (the input still takes any text). */
  list?: string;
}) {
  const id = useId();
  return (
    <Labelled id={id} field={field}>
      <input
        {...controlProps(id, field)}
        name={name}
        type={type}
        value={value}
        placeholder={placeholder}
        autoComplete={autoComplete}
        disabled={disabled}
        list={list}
        onChange={(e) => onChange(e.target.value)}
      />
    </Labelled>
  );
}

/** A multi-line text input. */
export function TextAreaField({
  value,
  onChange,
  rows = 4,
  name,
  ...field
}: Common & { value: string; onChange: (value: string) => void; rows?: number; name?: string }) {
  const id = useId();
  return (
    <Labelled id={id} field={field}>
      <textarea
        {...controlProps(id, field)}
        name={name}
        rows={rows}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </Labelled>
  );
}

/** A select from fixed options. */
export function SelectField({
  value,
  onChange,
  options,
  name,
  ...field
}: Common & {
  value: string;
  onChange: (value: string) => void;
  options: readonly (string | { value: string; label: string })[];
  name?: string;
}) {
  const id = useId();
  return (
    <Labelled id={id} field={field}>
      <select
        {...controlProps(id, field)}
        name={name}
        value={value}
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
    </Labelled>
  );
}

/** A checkbox with its label after it. */
export function CheckboxField({
  checked,
  onChange,
  name,
  ...field
}: Common & { checked: boolean; onChange: (checked: boolean) => void; name?: string }) {
  const id = useId();
  return (
    <div className="field field-check">
      <input
        {...controlProps(id, field)}
        name={name}
        type="checkbox"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
      />
      <label htmlFor={id}>{field.label}</label>
      <Described id={id} error={field.error} hint={field.hint} />
    </div>
  );
}

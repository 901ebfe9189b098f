import type { Schemas } from '../../api/client';

/**
 * One check type's part of the console, declared as data: its label, the config fields of its
 * form in order, and how a check of it reads (its target in one line, its settings as rows). One
 * file per type under this folder, registered in ./registry.ts typed
 * `satisfies { [T in CheckType]: CheckTypeForm<T> }` (the API document's check types), so
 * `tsc -p web` fails until a new type has its form. ../check-form.tsx and ../check-summary.tsx
 * render any of them.
 */

export type CheckType = Schemas['Check']['check_type'];
/** A check of one type, as the API returns it. */
type CheckOf<T extends CheckType> = Extract<Schemas['Check'], { check_type: T }>;

/** How a field edits its config key. */
type CheckFieldKind =
  /** One line of text (trimmed; empty leaves the key out). */
  | 'text'
  /** A whole number (sent as a JSON number; empty leaves the key out). */
  | 'number'
  /** One of `options` (the first is a new check's default). */
  | 'select'
  /** A JSON value in a multi-line input (sent parsed; text that is not JSON is sent as given, for the API to refuse). */
  | 'json';

export interface CheckConfigField {
  /** The config key (`config.<key>` in the API's field errors). */
  key: string;
  label: string;
  kind: CheckFieldKind;
  required?: boolean;
  /** A sentence under the field: what it does, its default. */
  hint?: string;
  /** The default shown in the empty input; a function when it follows other inputs (the interval). */
  placeholder?: string | ((draft: { interval_seconds: string; config?: Record<string, string> }) => string);
  /** select: the values offered. */
  options?: readonly string[];
}

export interface CheckTypeForm<T extends CheckType = CheckType> {
  /** The type select's label: "TCP port", "DNS record". */
  label: string;
  /**
   * http: its request is the check's top-level fields (the form's own http inputs); push: reported
   * to, never probed (no timeout); configured: probed, set up by `config` alone; outside: made and
   * written by an integration's alerts (not offered in the form).
   */
  kind: 'http' | 'push' | 'configured' | 'outside';
  /** The name a blank Name input stands for, as the API derives it: "TCP db.internal:5432". */
  nameExample: string;
  /** The `config` inputs, in order. */
  fields: readonly CheckConfigField[];
  /** Whether the check takes per-check TLS trust (`tls: {ca_pem, skip_verify}`). */
  tls: boolean;
  /** Whether its results carry Web Vitals (`details.vitals`), which the check's page charts. */
  vitals?: true;
  /** What it probes in one line: "tcp db:5432", "dns A example.com". */
  target(check: CheckOf<T>): string;
  /** Its own settings as label/value rows (after the common ones). */
  rows(check: CheckOf<T>): [string, string][];
}

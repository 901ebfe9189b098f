import type { Schemas } from '../api/client';

/**
 * The assertions of an http check in the check form (DECISIONS.md "HTTP assertions and degraded"):
 * one row per assertion (source, path, op, value), added and removed in place. The value is typed
 * as text and sent as the API reads it: a number for lt/lte/gt/gte, true/false for exists, text
 * otherwise. The API validates (a regex must run on RE2, a json path must be in dotted form) and
 * its errors show at the row they name (`assertions.<i>.<field>`).
 */

const SOURCES = ['status', 'body', 'json', 'header', 'latency_ms'] as const;
const OPS = ['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'contains', 'not_contains', 'matches', 'exists'] as const;
const NUMERIC = new Set(['lt', 'lte', 'gt', 'gte']);

export interface AssertionRow {
  source: string;
  path: string;
  op: string;
  value: string;
}

const newAssertionRow = (): AssertionRow => ({ source: 'json', path: '$.', op: 'eq', value: '' });

/** The rows of a stored check's assertions. */
export function rowsOf(assertions: Schemas['HttpCheck']['assertions'] | undefined): AssertionRow[] {
  return (assertions ?? []).map((a) => ({
    source: a.source,
    path: a.path ?? '',
    op: a.op,
    value: a.value === undefined ? '' : typeof a.value === 'string' ? a.value : JSON.stringify(a.value),
  }));
}

const takesPath = (source: string) => source === 'json' || source === 'header';

/** The API's assertions of the rows. */
export function assertionsOf(rows: readonly AssertionRow[]): Record<string, unknown>[] {
  return rows.map((row) => {
    const out: Record<string, unknown> = { source: row.source, op: row.op };
    if (takesPath(row.source)) out.path = row.path.trim();
    const raw = row.value;
    if (row.op === 'exists') {
      if (raw.trim() !== '') out.value = raw.trim() !== 'false';
    } else if (NUMERIC.has(row.op)) {
      const n = Number(raw.trim());
      out.value = raw.trim() !== '' && Number.isFinite(n) ? n : raw;
    } else {
      out.value = raw;
    }
    return out;
  });
}

export function AssertionsEditor({
  rows,
  onChange,
  errors,
}: {
  rows: AssertionRow[];
  onChange: (rows: AssertionRow[]) => void;
  errors: Record<string, string>;
}) {
  const update = (i: number, field: keyof AssertionRow) => (value: string) =>
    onChange(rows.map((row, j) => (j === i ? { ...row, [field]: value } : row)));
  const listError = errors.assertions;
  return (
    <fieldset className="assertions">
      <legend>Assertions</legend>
      <p className="hint">
        All must pass. json paths in dotted form ($.data.items[0].status); matches takes an RE2 regular
        expression.
      </p>
      {rows.length === 0 ? <p className="muted">No assertions.</p> : null}
      {rows.map((row, i) => {
        const at = (field: string) => errors[`assertions.${i}.${field}`];
        const rowError = errors[`assertions.${i}`] ?? at('path') ?? at('value') ?? at('op') ?? at('source');
        const n = i + 1;
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity besides their place
          <fieldset className="assertion-row" key={i} aria-label={`Assertion ${n}`}>
            <label>
              Source
              <select value={row.source} onChange={(e) => update(i, 'source')(e.target.value)}>
                {SOURCES.map((s) => (
                  <option key={s}>{s}</option>
                ))}
              </select>
            </label>
            {takesPath(row.source) ? (
              <label>
                {row.source === 'json' ? 'JSON path' : 'Header name'}
                <input
                  value={row.path}
                  onChange={(e) => update(i, 'path')(e.target.value)}
                  aria-invalid={at('path') ? true : undefined}
                />
              </label>
            ) : null}
            <label>
              Operator
              <select value={row.op} onChange={(e) => update(i, 'op')(e.target.value)}>
                {OPS.map((o) => (
                  <option key={o}>{o}</option>
                ))}
              </select>
            </label>
            <label>
              Value
              <input
                value={row.value}
                placeholder={row.op === 'exists' ? 'true' : undefined}
                onChange={(e) => update(i, 'value')(e.target.value)}
                aria-invalid={at('value') ? true : undefined}
              />
            </label>
            <button type="button" onClick={() => onChange(rows.filter((_, j) => j !== i))}>
              Remove assertion {n}
            </button>
            {rowError ? (
              <p className="field-error" role="alert">
                {rowError}
              </p>
            ) : null}
          </fieldset>
        );
      })}
      {listError ? (
        <p className="field-error" role="alert">
          {listError}
        </p>
      ) : null}
      {rows.length < 20 ? (
        <button type="button" onClick={() => onChange([...rows, newAssertionRow()])}>
          Add assertion
        </button>
      ) : null}
    </fieldset>
  );
}

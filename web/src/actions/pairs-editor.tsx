/**
 * A small name/value editor (action headers, run variables): one row per pair, each with labelled
 * inputs and a remove button, and an add button. Errors from the API are shown under the rows.
 */

export interface Pair {
  name: string;
  value: string;
}

/** Turns editor rows into an object, skipping rows without a name. */
export function pairsToObject(pairs: Pair[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of pairs) if (p.name.trim() !== '') out[p.name.trim()] = p.value;
  return out;
}

/** Turns an object into editor rows. */
export function objectToPairs(obj: Record<string, string> | undefined): Pair[] {
  return Object.entries(obj ?? {}).map(([name, value]) => ({ name, value }));
}

/** The editor: `what` names a row in labels ("Header", "Variable"). */
export function PairsEditor({
  legend,
  what,
  pairs,
  onChange,
  error,
  hint,
}: {
  legend: string;
  what: string;
  pairs: Pair[];
  onChange: (pairs: Pair[]) => void;
  error?: string | undefined;
  hint?: string;
}) {
  const set = (i: number, patch: Partial<Pair>) =>
    onChange(pairs.map((p, j) => (j === i ? { ...p, ...patch } : p)));
  return (
    <fieldset className="pairs">
      <legend>{legend}</legend>
      {hint ? <p className="hint">{hint}</p> : null}
      {pairs.length === 0 ? <p className="muted">None.</p> : null}
      {pairs.map((p, i) => (
        // Rows have no identity of their own: the index is what the user sees as "row n".
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are positional
        <div className="pair-row" key={i}>
          <input
            aria-label={`${what} ${i + 1} name`}
            placeholder="name"
            value={p.name}
            onChange={(e) => set(i, { name: e.target.value })}
          />
          <input
            aria-label={`${what} ${i + 1} value`}
            placeholder="value"
            value={p.value}
            onChange={(e) => set(i, { value: e.target.value })}
          />
          <button type="button" onClick={() => onChange(pairs.filter((_, j) => j !== i))}>
            Remove {what.toLowerCase()} {i + 1}
          </button>
        </div>
      ))}
      <button type="button" onClick={() => onChange([...pairs, { name: '', value: '' }])}>
        Add {what.toLowerCase()}
      </button>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

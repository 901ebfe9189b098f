import { type ChosenEntity, EntitySearchField } from './entity-search-field';

/** What a chip list says: its legend, the list's name, and the words when none is chosen. */
export interface EntitySearchChipsWords {
  legend: string;
  listLabel: string;
  none: string;
  /** The search field's label. */
  field: string;
}

/**
 * Several entities as chips, each removable, added one at a time through the server-side search
 * picker (EntitySearchField): nothing lists every entity, so it works at any fleet size. The
 * chosen entities come named (the answers carry their names), so no directory is read.
 */
export function EntitySearchChips({
  chosen,
  onChange,
  words,
  max,
  error,
  hint,
}: {
  chosen: readonly ChosenEntity[];
  onChange: (entities: ChosenEntity[]) => void;
  words: EntitySearchChipsWords;
  /** The API's bound on the list: the field goes once it is reached. */
  max: number;
  error?: string | undefined;
  hint?: string | undefined;
}) {
  const label = (e: ChosenEntity) => `${e.name} (${e.blueprint_slug}/${e.slug})`;
  return (
    <fieldset>
      <legend>{words.legend}</legend>
      {chosen.length > 0 ? (
        <ul className="chips" aria-label={words.listLabel}>
          {chosen.map((e) => (
            <li key={e.id}>
              <span>{label(e)}</span>
              <button type="button" onClick={() => onChange(chosen.filter((x) => x.id !== e.id))}>
                Remove<span className="visually-hidden"> {label(e)}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">{words.none}</p>
      )}
      {chosen.length < max ? (
        <EntitySearchField
          label={words.field}
          value={undefined}
          onChange={(e) => {
            if (e && !chosen.some((x) => x.id === e.id)) onChange([...chosen, e]);
          }}
          error={error}
        />
      ) : (
        <p className="muted">
          {max} chosen, the most there can be.
          {error ? <span className="field-error"> {error}</span> : null}
        </p>
      )}
      {hint ? <p className="hint">{hint}</p> : null}
    </fieldset>
  );
}

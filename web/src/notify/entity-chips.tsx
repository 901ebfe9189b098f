import { useState } from 'react';
import { type DirectoryEntity, entityLabel } from '../catalog/directory';
import { SelectField } from '../ui/fields';

/** The API's bound on a route's entities (lib/notify/route-schemas.ts MAX_ROUTE_ENTITIES), as on a status page's. */
const MAX_ENTITIES = 100;

/** What the chip list says: a route's wording unless its user (a status page) gives its own. */
export interface EntityChipsWords {
  legend: string;
  listLabel: string;
  none: string;
}

const ROUTE_WORDS: EntityChipsWords = {
  legend: 'Alerts of these entities (none: any)',
  listLabel: 'Route entities',
  none: 'Any entity.',
};

/**
 * A route's entities as a chip list: picked one at a time (select, then "Add entity", so arrowing
 * through the select adds nothing), each removable. None chosen: the route matches any entity.
 */
export function EntityChips({
  chosen,
  onChange,
  entities,
  error,
  words = ROUTE_WORDS,
}: {
  chosen: string[];
  onChange: (ids: string[]) => void;
  entities: DirectoryEntity[];
  error?: string | undefined;
  words?: EntityChipsWords;
}) {
  const [pick, setPick] = useState('');
  const label = (id: string) => {
    const e = entities.find((x) => x.id === id);
    return e ? entityLabel(e) : id;
  };
  const left = entities.filter((e) => !chosen.includes(e.id));
  const add = () => {
    if (pick && !chosen.includes(pick)) onChange([...chosen, pick]);
    setPick('');
  };
  return (
    <fieldset>
      <legend>{words.legend}</legend>
      {chosen.length > 0 ? (
        <ul className="chips" aria-label={words.listLabel}>
          {chosen.map((id) => (
            <li key={id}>
              <span>{label(id)}</span>
              <button type="button" onClick={() => onChange(chosen.filter((x) => x !== id))}>
                Remove<span className="visually-hidden"> {label(id)}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">{words.none}</p>
      )}
      <div className="row">
        <SelectField
          label="Entity to add"
          value={pick}
          onChange={setPick}
          options={[
            { value: '', label: 'Choose an entity' },
            ...left.map((e) => ({ value: e.id, label: entityLabel(e) })),
          ]}
          hint={`Up to ${MAX_ENTITIES}`}
          error={error}
        />
        <button type="button" disabled={!pick || chosen.length >= MAX_ENTITIES} onClick={add}>
          Add entity
        </button>
      </div>
    </fieldset>
  );
}

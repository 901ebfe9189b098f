import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useState } from 'react';
import { TextField } from '../ui/fields';
import { entityQueries } from './queries';

/** An entity as a picker names it. */
export interface ChosenEntity {
  id: string;
  name: string;
  slug: string;
  blueprint_slug: string;
}

/** The most matches a picker offers at once (type more to narrow). */
const MATCHES = 10;

/**
 * An entity picker that scales: type the start of a name or slug and choose one of the matches the
 * server finds (GET /v1/entities?q=), instead of a select of every entity. Once chosen it shows the
 * entity by name with a button to choose another.
 */
export function EntitySearchField({
  label,
  value,
  onChange,
  error,
  blueprint,
}: {
  label: string;
  value: ChosenEntity | undefined;
  onChange: (entity: ChosenEntity | undefined) => void;
  error?: string | undefined;
  /** Only entities of this blueprint. */
  blueprint?: string | undefined;
}) {
  const [text, setText] = useState('');
  const q = useDeferredValue(text.trim());
  const matches = useQuery({
    ...entityQueries.search({ q, blueprint_slug: blueprint, limit: MATCHES }),
    enabled: value === undefined && q !== '',
  });
  if (value) {
    return (
      <div className="field entity-chosen">
        <span className="field-label">{label}</span>
        <span>
          <strong>{value.name}</strong>{' '}
          <span className="muted">
            ({value.blueprint_slug}/{value.slug})
          </span>{' '}
          <button
            type="button"
            onClick={() => onChange(undefined)}
            aria-label={`Change ${label.toLowerCase()}`}
          >
            Change
          </button>
        </span>
        {error ? <span className="field-error">{error}</span> : null}
      </div>
    );
  }
  const found = matches.data?.entities ?? [];
  return (
    <div className="entity-search">
      <TextField
        label={label}
        type="search"
        value={text}
        onChange={setText}
        autoComplete="off"
        error={error}
        hint="Type the start of a name or slug"
      />
      {q !== '' && matches.data ? (
        found.length === 0 ? (
          <p className="muted" role="status">
            No entity starts with “{q}”.
          </p>
        ) : (
          <ul className="plain entity-matches" aria-label={`${label}: matches`}>
            {found.map((e) => (
              <li key={e.id}>
                <button
                  type="button"
                  onClick={() => {
                    onChange({ id: e.id, name: e.name, slug: e.slug, blueprint_slug: e.blueprint_slug });
                    setText('');
                  }}
                >
                  {e.name}{' '}
                  <span className="muted">
                    ({e.blueprint_slug}/{e.slug})
                  </span>
                </button>
              </li>
            ))}
            {matches.data.next_cursor ? <li className="muted">More match: type more to narrow.</li> : null}
          </ul>
        )
      ) : null}
    </div>
  );
}

import { useQuery } from '@tanstack/react-query';
import { EntitySearchChips } from '../catalog/entity-search-chips';
import type { ChosenEntity } from '../catalog/entity-search-field';
import { blueprintQueries } from '../catalog/queries';
import { CheckboxField } from '../ui/fields';

/**
 * What a window covers: entities picked one by one through the server-side entity search (no list
 * of every entity, so any fleet size), the tenant's blueprints as checkboxes, and
 * whether dependents are covered too. Errors arrive from the API keyed by field path.
 */

export interface Cover {
  /** Named as the window's answer names them (`entities`), or as the search chose them. */
  entities: ChosenEntity[];
  blueprintSlugs: string[];
  includeDependents: boolean;
}

/** The API's bound on a window's entities (lib/maintenance/maintenance-items.ts WINDOW_LIMITS). */
const MAX_ENTITIES = 100;

const ENTITY_WORDS = {
  legend: 'Entities it covers',
  listLabel: 'Covered entities',
  none: 'No entity chosen.',
  field: 'Add an entity',
};

/** The first error the API gave for `field` or one of its items (`entity_ids.2`). */
function errorFor(errs: Record<string, string>, field: string): string | undefined {
  return errs[field] ?? Object.entries(errs).find(([path]) => path.startsWith(`${field}.`))?.[1];
}

export function CoverFields({
  cover,
  onChange,
  errs,
}: {
  cover: Cover;
  onChange: (cover: Cover) => void;
  errs: Record<string, string>;
}) {
  const blueprints = useQuery(blueprintQueries.list());
  const bpError = errorFor(errs, 'blueprint_slugs');
  return (
    <>
      <EntitySearchChips
        chosen={cover.entities}
        onChange={(entities) => onChange({ ...cover, entities })}
        words={ENTITY_WORDS}
        max={MAX_ENTITIES}
        error={errorFor(errs, 'entity_ids')}
        hint="A window covers at least one entity or blueprint."
      />
      <fieldset>
        <legend>Blueprints it covers (every entity of them)</legend>
        {(blueprints.data ?? []).map((b) => (
          <CheckboxField
            key={b.slug}
            label={`Blueprint ${b.name}`}
            checked={cover.blueprintSlugs.includes(b.slug)}
            onChange={(on) =>
              onChange({
                ...cover,
                blueprintSlugs: on
                  ? [...cover.blueprintSlugs, b.slug]
                  : cover.blueprintSlugs.filter((s) => s !== b.slug),
              })
            }
          />
        ))}
        {bpError ? <span className="field-error">{bpError}</span> : null}
      </fieldset>
      <CheckboxField
        label="Also cover what depends on them"
        checked={cover.includeDependents}
        onChange={(on) => onChange({ ...cover, includeDependents: on })}
        hint="Entities that depend on a covered entity, directly or through others."
      />
    </>
  );
}

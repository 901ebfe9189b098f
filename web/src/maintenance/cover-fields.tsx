import { useQuery } from '@tanstack/react-query';
import { entityLabel, useEntityDirectory } from '../catalog/directory';
import { blueprintQueries } from '../catalog/queries';
import { CheckboxField, SelectField } from '../ui/fields';

/**
 * What a window covers: entities picked one by one from the entity directory (a select scales to
 * a thousand entities where checkboxes would not), the tenant's blueprints as checkboxes, and
 * whether dependents are covered too. Errors arrive from the API keyed by field path.
 */

export interface Cover {
  entityIds: string[];
  blueprintSlugs: string[];
  includeDependents: boolean;
}

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
  const directory = useEntityDirectory();
  const blueprints = useQuery(blueprintQueries.list());
  const entities = directory.data?.entities ?? [];
  const name = (id: string) => {
    const e = entities.find((x) => x.id === id);
    return e ? entityLabel(e) : id;
  };
  const bpError = errorFor(errs, 'blueprint_slugs');
  return (
    <>
      <fieldset>
        <legend>Entities it covers</legend>
        {cover.entityIds.length > 0 ? (
          <ul className="plain" aria-label="Covered entities">
            {cover.entityIds.map((id) => (
              <li key={id} className="row">
                <span>{name(id)}</span>
                <button
                  type="button"
                  onClick={() => onChange({ ...cover, entityIds: cover.entityIds.filter((x) => x !== id) })}
                >
                  Remove {name(id)}
                </button>
              </li>
            ))}
          </ul>
        ) : null}
        <SelectField
          label="Add an entity"
          value=""
          onChange={(id) => id && onChange({ ...cover, entityIds: [...cover.entityIds, id] })}
          options={[
            { value: '', label: 'Choose an entity…' },
            ...entities
              .filter((e) => !cover.entityIds.includes(e.id))
              .map((e) => ({ value: e.id, label: entityLabel(e) })),
          ]}
          error={errorFor(errs, 'entity_ids')}
          hint="A window covers at least one entity or blueprint."
        />
      </fieldset>
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

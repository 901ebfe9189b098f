import { useQuery } from '@tanstack/react-query';
import { blueprintQueries, entityQueries } from '../catalog/queries';
import { SelectField } from '../ui/fields';

/** Choose a blueprint, then one of its entities; answers the entity id through `onChange`. */
export function EntityPicker({
  blueprint,
  onBlueprint,
  entityId,
  onChange,
  error,
  anyLabel,
}: {
  blueprint: string;
  onBlueprint: (slug: string) => void;
  entityId: string;
  onChange: (id: string) => void;
  error?: string | undefined;
  /** As a filter: the empty choice means "any" and says this (and nothing is required). */
  anyLabel?: string;
}) {
  const blueprints = useQuery(blueprintQueries.list());
  const entities = useQuery(entityQueries.list(blueprint));
  const bps = blueprints.data ?? [];
  const ents = entities.data ?? [];
  return (
    <div className="form-grid">
      <SelectField
        label="Blueprint"
        value={blueprint}
        onChange={(v) => {
          onBlueprint(v);
          onChange('');
        }}
        options={[
          { value: '', label: anyLabel ?? (bps.length ? 'Choose a blueprint' : 'No blueprints yet') },
          ...bps.map((b) => ({ value: b.slug, label: b.name })),
        ]}
      />
      <SelectField
        label="Entity"
        value={entityId}
        onChange={onChange}
        required={anyLabel === undefined}
        error={error}
        hint={
          blueprint && entities.isSuccess && ents.length === 0
            ? 'This blueprint has no entities yet: add one in the catalog.'
            : undefined
        }
        options={[
          { value: '', label: anyLabel ?? (blueprint ? 'Choose an entity' : 'Choose a blueprint first') },
          ...ents.map((e) => ({ value: e.id, label: `${e.name} (${e.slug})` })),
        ]}
      />
    </div>
  );
}

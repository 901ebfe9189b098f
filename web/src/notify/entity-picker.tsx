import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { blueprintQueries } from '../catalog/queries';
import { SelectField } from '../ui/fields';
import { notifyQueries, PICKER_LIMIT } from './queries';

/** An entity a picker answers: its id and what people read. */
export interface PickedEntity {
  id: string;
  name: string;
  blueprint_slug: string;
  slug: string;
}

/**
 * Picks one entity without a directory of the tenant: a blueprint first, then one of its entities
 * (the first PICKER_LIMIT of GET /v1/status for that blueprint; the server has no text search of
 * entities yet). Choosing an entity answers it at once.
 */
export function EntityPicker({
  label,
  onPick,
  exclude = [],
  error,
  disabled = false,
}: {
  label: string;
  onPick: (entity: PickedEntity) => void;
  exclude?: readonly string[];
  error?: string | undefined;
  disabled?: boolean;
}) {
  const [blueprint, setBlueprint] = useState('');
  const blueprints = useQuery(blueprintQueries.list());
  const entities = useQuery(notifyQueries.entitiesOf(blueprint));
  const left = (entities.data?.entities ?? []).filter((e) => !exclude.includes(e.id));
  const more = (entities.data?.next_cursor ?? null) !== null;
  return (
    <div className="row">
      <SelectField
        label={`${label}: blueprint`}
        value={blueprint}
        onChange={setBlueprint}
        options={[
          { value: '', label: 'Choose a blueprint' },
          ...(blueprints.data ?? []).map((b) => ({ value: b.slug, label: b.name })),
        ]}
      />
      <SelectField
        label={label}
        value=""
        onChange={(id) => {
          const entity = left.find((e) => e.id === id);
          if (entity)
            onPick({
              id: entity.id,
              name: entity.name,
              blueprint_slug: entity.blueprint_slug,
              slug: entity.slug,
            });
        }}
        options={[
          { value: '', label: blueprint ? 'Choose an entity' : 'Choose a blueprint first' },
          ...(disabled ? [] : left.map((e) => ({ value: e.id, label: e.name }))),
        ]}
        hint={more ? `The first ${PICKER_LIMIT} of this blueprint` : undefined}
        error={error}
      />
    </div>
  );
}

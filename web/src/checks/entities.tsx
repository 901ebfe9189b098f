import { useQueries, useQuery } from '@tanstack/react-query';
import { api, must, type Schemas } from '../api/client';
import { SelectField } from '../ui/fields';

/**
 * Entities by id, for naming a check's entity: the blueprints, then each blueprint's entities
 * (the same ['entities', slug] queries the catalog pages use, so they share one cache).
 */
export function useEntityIndex(): { byId: Map<string, Schemas['Entity']>; loading: boolean; error: unknown } {
  const blueprints = useQuery({ queryKey: ['blueprints'], queryFn: () => must(api.GET('/v1/blueprints')) });
  const lists = useQueries({
    queries: (blueprints.data ?? []).map((bp) => ({
      queryKey: ['entities', bp.slug],
      queryFn: () =>
        must(
          api.GET('/v1/blueprints/{blueprint_slug}/entities', {
            params: { path: { blueprint_slug: bp.slug } },
          }),
        ),
    })),
  });
  const byId = new Map<string, Schemas['Entity']>();
  for (const l of lists) for (const e of l.data ?? []) byId.set(e.id, e);
  return {
    byId,
    loading: blueprints.isPending || lists.some((l) => l.isPending),
    error: blueprints.error ?? lists.find((l) => l.error)?.error,
  };
}

/** Choose a blueprint, then one of its entities; answers the entity id through `onChange`. */
export function EntityPicker({
  blueprint,
  onBlueprint,
  entityId,
  onChange,
  error,
}: {
  blueprint: string;
  onBlueprint: (slug: string) => void;
  entityId: string;
  onChange: (id: string) => void;
  error?: string | undefined;
}) {
  const blueprints = useQuery({ queryKey: ['blueprints'], queryFn: () => must(api.GET('/v1/blueprints')) });
  const entities = useQuery({
    queryKey: ['entities', blueprint],
    enabled: blueprint !== '',
    queryFn: () =>
      must(
        api.GET('/v1/blueprints/{blueprint_slug}/entities', {
          params: { path: { blueprint_slug: blueprint } },
        }),
      ),
  });
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
          { value: '', label: bps.length ? 'Choose a blueprint' : 'No blueprints yet' },
          ...bps.map((b) => ({ value: b.slug, label: b.name })),
        ]}
      />
      <SelectField
        label="Entity"
        value={entityId}
        onChange={onChange}
        required
        error={error}
        hint={
          blueprint && entities.isSuccess && ents.length === 0
            ? 'This blueprint has no entities yet: add one in the catalog.'
            : undefined
        }
        options={[
          { value: '', label: blueprint ? 'Choose an entity' : 'Choose a blueprint first' },
          ...ents.map((e) => ({ value: e.id, label: `${e.name} (${e.slug})` })),
        ]}
      />
    </div>
  );
}

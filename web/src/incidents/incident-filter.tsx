import { useQuery } from '@tanstack/react-query';
import { searchQueries } from '../search/queries';
import { SearchCombobox } from '../search/search-combobox';
import { SelectField } from '../ui/fields';
import { useQueryParams } from '../ui/query-params';
import { INCIDENT_STATE, type Incident } from './words';

const STATES = Object.keys(INCIDENT_STATE) as Incident['state'][];

export interface IncidentUrlFilter {
  state: Incident['state'] | undefined;
  /** The entity's id (`?entity=`), or '' for every entity. */
  entityId: string;
}

/**
 * The incident filter kept in the URL (`?state=`, `?entity=`), so a link reproduces the view;
 * the list asks the server with it (GET /v1/incidents?state=&entity_id=).
 */
export function useIncidentFilter() {
  const [params, changeParams] = useQueryParams();
  const raw = params.get('state') ?? '';
  const filter: IncidentUrlFilter = {
    state: STATES.find((s) => s === raw),
    entityId: params.get('entity') ?? '',
  };
  // Each change is a history entry of its own (back undoes a filter).
  const change = (values: { state?: string; entity?: string }) => changeParams(values, { push: true });
  return { filter, change, active: filter.state !== undefined || filter.entityId !== '' };
}

/** The state select and the entity search box (or the chosen entity with a way to clear it). */
export function IncidentFilterBar({ filter, change }: ReturnType<typeof useIncidentFilter>) {
  // The chosen entity's name: the search finds an entity by its id.
  const entity = useQuery(searchQueries.results({ q: filter.entityId, kind: 'entity', limit: 1 }));
  const name = entity.data?.[0]?.name;
  return (
    <search className="status-filters" aria-label="Filter incidents">
      <SelectField
        label="State"
        value={filter.state ?? ''}
        onChange={(state) => change({ state })}
        options={[
          { value: '', label: 'Any state' },
          ...STATES.map((s) => ({ value: s, label: INCIDENT_STATE[s].words })),
        ]}
      />
      {filter.entityId ? (
        <div className="field">
          <span className="field-label">Entity</span>
          <div className="row">
            <strong>{name ?? (entity.isPending ? 'Loading…' : 'an entity no longer in the catalog')}</strong>
            <button type="button" onClick={() => change({ entity: '' })}>
              Any entity
            </button>
          </div>
        </div>
      ) : (
        <div className="search-picker">
          <SearchCombobox
            label="Entity"
            kind="entity"
            limit={10}
            onChoose={(r) => change({ entity: r.id })}
          />
        </div>
      )}
    </search>
  );
}

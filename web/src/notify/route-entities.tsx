import { entityLabel } from '../catalog/entity-reads';
import { EntityPicker, type PickedEntity } from './entity-picker';

/** The API's bound on a route's entities (lib/notify/routing/route-schemas.ts MAX_ROUTE_ENTITIES). */
const MAX_ENTITIES = 100;

/**
 * A new route's entities as a chip list: each picked by blueprint, then entity (no directory of the
 * tenant), each removable. None chosen: the route matches any entity.
 */
export function RouteEntities({
  chosen,
  onChange,
  error,
}: {
  chosen: PickedEntity[];
  onChange: (entities: PickedEntity[]) => void;
  error?: string | undefined;
}) {
  return (
    <fieldset>
      <legend>Alerts of these entities (none: any)</legend>
      {chosen.length > 0 ? (
        <ul className="chips" aria-label="Route entities">
          {chosen.map((e) => (
            <li key={e.id}>
              <span>{entityLabel(e)}</span>
              <button type="button" onClick={() => onChange(chosen.filter((x) => x.id !== e.id))}>
                Remove<span className="visually-hidden"> {entityLabel(e)}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">Any entity.</p>
      )}
      <EntityPicker
        label="Entity to add"
        exclude={chosen.map((e) => e.id)}
        disabled={chosen.length >= MAX_ENTITIES}
        onPick={(e) => onChange([...chosen, e])}
        error={error}
      />
    </fieldset>
  );
}

import type { Schemas } from '../api/client';
import { Empty } from '../ui/feedback';

/** An entity's field values as the entity page shows them, each as its blueprint types it. */

type Entity = Schemas['Entity'];
type Blueprint = Schemas['Blueprint'];

function FieldValue({
  value,
  type,
}: {
  value: Entity['fields'][string] | undefined;
  type: string | undefined;
}) {
  if (value === undefined || value === '') return <span className="muted">not set</span>;
  if (Array.isArray(value)) {
    if (value.length === 0) return <span className="muted">none</span>;
    return (
      <ul className="plain">
        {value.map((v, i) => (
          // Array items may repeat; their position is their identity.
          // biome-ignore lint/suspicious/noArrayIndexKey: values may repeat
          <li key={i}>{String(v)}</li>
        ))}
      </ul>
    );
  }
  if (typeof value === 'boolean') return <>{value ? 'yes' : 'no'}</>;
  // Only web addresses become links (never javascript: or other schemes).
  if (type === 'url' && typeof value === 'string' && /^https?:\/\//i.test(value))
    return (
      <a href={value} rel="noreferrer noopener" target="_blank">
        {value}
      </a>
    );
  return <>{String(value)}</>;
}

/** An entity's fields in its blueprint's order (typed), then any the blueprint does not define. */
export function EntityFields({ entity, blueprint }: { entity: Entity; blueprint: Blueprint | undefined }) {
  const typed = blueprint?.fields ?? [];
  const names = new Set(typed.map((f) => f.name));
  const others = Object.keys(entity.fields).filter((k) => !names.has(k));
  if (typed.length === 0 && others.length === 0) return <Empty title="This blueprint defines no fields." />;
  return (
    <dl className="fields">
      {typed.map((f) => (
        <div key={f.name}>
          <dt>
            {f.name} <span className="muted">({f.field_type})</span>
          </dt>
          <dd>
            <FieldValue value={entity.fields[f.name]} type={f.field_type} />
          </dd>
        </div>
      ))}
      {others.map((k) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>
            <FieldValue value={entity.fields[k]} type={undefined} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

import type { operations } from '../api/schema';
import { SelectField, TextField } from '../ui/fields';
import { instantOfLocal, localOfInstant } from './zone-time';

export type ScheduleInput = operations['createSchedule']['requestBody']['content']['application/json'];
export type LayerInput = ScheduleInput['layers'][number];
type Day = NonNullable<LayerInput['restrictions']>[number]['days'][number];

const DAYS: { value: Day; label: string }[] = [
  { value: 'mon', label: 'Mon' },
  { value: 'tue', label: 'Tue' },
  { value: 'wed', label: 'Wed' },
  { value: 'thu', label: 'Thu' },
  { value: 'fri', label: 'Fri' },
  { value: 'sat', label: 'Sat' },
  { value: 'sun', label: 'Sun' },
];
/** True for a weekday the API names (a read restriction's days are typed as strings). */
export const isDay = (value: string): value is Day => DAYS.some((d) => d.value === value);

const ROTATIONS = [
  { value: 'daily', label: 'Daily' },
  { value: 'weekly', label: 'Weekly' },
  { value: 'custom', label: 'Custom length' },
];

/** The layer's optional start and end, typed as wall-clock times of the schedule's zone. */
const BOUNDS = [
  {
    field: 'starts_at',
    label: 'Layer starts (optional)',
    hint: 'Nobody from this layer is on call before it. Empty: from the first handoff',
  },
  { field: 'ends_at', label: 'Layer ends (optional)', hint: '…nor after it. Empty: no end' },
] as const;

/** A new layer: the person adding it, weekly from today at 09:00. */
export function newLayer(memberId: string, n: number): LayerInput {
  return {
    name: `Layer ${n}`,
    members: memberId ? [memberId] : [],
    rotation: { type: 'weekly', handoff: '09:00', start: new Date().toISOString().slice(0, 10) },
  };
}

/**
 * One layer of the schedule form: name, members in rotation order (each a person of the account),
 * the rotation, when the layer starts and ends (optional; wall-clock times in the schedule's
 * `zone`), and restrictions (the windows of the week the layer is on). `errors` are the API's
 * field errors under `layers.<index>.`.
 */
export function LayerFields({
  index,
  layer,
  zone,
  people,
  errors,
  onChange,
  onRemove,
}: {
  index: number;
  layer: LayerInput;
  /** The schedule's time zone: the layer's start and end are typed as wall-clock times there. */
  zone: string;
  people: { value: string; label: string }[];
  errors: Record<string, string>;
  onChange: (layer: LayerInput) => void;
  onRemove: () => void;
}) {
  const at = (path: string) => errors[`layers.${index}.${path}`];
  const set = (patch: Partial<LayerInput>) => onChange({ ...layer, ...patch });
  const rotation = (patch: Partial<LayerInput['rotation']>) => {
    const next = { ...layer.rotation, ...patch };
    if (next.type !== 'custom') delete next.length_hours;
    else next.length_hours ??= 12;
    set({ rotation: next });
  };
  /** Sets `starts_at` or `ends_at` from a `datetime-local` value; empty (or incomplete) leaves it out. */
  const bound = (field: 'starts_at' | 'ends_at', local: string) => {
    const { [field]: _, ...rest } = layer;
    const instant = instantOfLocal(local, zone);
    onChange(instant === undefined ? rest : { ...rest, [field]: instant });
  };
  const restrictions = layer.restrictions ?? [];
  const setRestriction = (i: number, patch: Partial<(typeof restrictions)[number]>) =>
    set({ restrictions: restrictions.map((r, j) => (j === i ? { ...r, ...patch } : r)) });
  return (
    <fieldset className="layer-fields">
      <legend>Layer {index + 1}</legend>
      <div className="form-grid">
        <TextField
          label="Layer name"
          value={layer.name}
          onChange={(name) => set({ name })}
          required
          error={at('name')}
        />
        <SelectField
          label="Rotation"
          value={layer.rotation.type}
          onChange={(type) => rotation({ type: type as LayerInput['rotation']['type'] })}
          options={ROTATIONS}
          error={at('rotation.type')}
        />
        {layer.rotation.type === 'custom' ? (
          <TextField
            label="Shift length (hours)"
            type="number"
            value={String(layer.rotation.length_hours ?? '')}
            onChange={(v) => rotation({ length_hours: Number(v) })}
            error={at('rotation.length_hours')}
          />
        ) : null}
        <TextField
          label="Handoff time"
          type="time"
          value={layer.rotation.handoff}
          onChange={(handoff) => rotation({ handoff })}
          error={at('rotation.handoff')}
        />
        <TextField
          label="First handoff (date)"
          type="date"
          value={layer.rotation.start}
          onChange={(start) => rotation({ start })}
          error={at('rotation.start')}
          hint="The first member's shift starts then"
        />
        {BOUNDS.map(({ field, label, hint }) => (
          <TextField
            key={field}
            label={label}
            type="datetime-local"
            value={layer[field] ? localOfInstant(layer[field], zone) : ''}
            onChange={(local) => bound(field, local)}
            error={at(field)}
            hint={hint}
          />
        ))}
      </div>
      <h4>Members, in rotation order</h4>
      {at('members') ? <p className="field-error">{at('members')}</p> : null}
      <ol className="member-list">
        {layer.members.map((member, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a person may appear twice; the slot is the identity
          <li key={i} className="row">
            <SelectField
              label={`Member ${i + 1}`}
              value={member}
              onChange={(id) => set({ members: layer.members.map((m, j) => (j === i ? id : m)) })}
              options={people}
              error={at(`members.${i}`)}
            />
            <button
              type="button"
              aria-label={`Remove member ${i + 1} of layer ${index + 1}`}
              onClick={() => set({ members: layer.members.filter((_, j) => j !== i) })}
            >
              Remove
            </button>
          </li>
        ))}
      </ol>
      <button type="button" onClick={() => set({ members: [...layer.members, people[0]?.value ?? ''] })}>
        Add member
      </button>
      <h4>Restrictions</h4>
      <p className="muted">Without any, the layer is on all the time. With some, only inside them.</p>
      {restrictions.map((r, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: restrictions have no identity but their place
        <fieldset key={i} className="restriction">
          <legend>Restriction {i + 1}</legend>
          <div className="day-boxes">
            {DAYS.map((day) => (
              <label key={day.value}>
                <input
                  type="checkbox"
                  checked={r.days.includes(day.value)}
                  onChange={(e) =>
                    setRestriction(i, {
                      days: e.target.checked ? [...r.days, day.value] : r.days.filter((d) => d !== day.value),
                    })
                  }
                />{' '}
                {day.label}
              </label>
            ))}
          </div>
          <div className="form-grid">
            <TextField
              label="From"
              type="time"
              value={r.from}
              onChange={(from) => setRestriction(i, { from })}
              error={at(`restrictions.${i}.from`)}
            />
            <TextField
              label="To"
              type="time"
              value={r.to}
              onChange={(to) => setRestriction(i, { to })}
              error={at(`restrictions.${i}.to`)}
            />
          </div>
          <button type="button" onClick={() => set({ restrictions: restrictions.filter((_, j) => j !== i) })}>
            Remove restriction {i + 1}
          </button>
        </fieldset>
      ))}
      <button
        type="button"
        onClick={() =>
          set({
            restrictions: [
              ...restrictions,
              { days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '09:00', to: '17:00' },
            ],
          })
        }
      >
        Add restriction
      </button>
      <div>
        <button type="button" className="danger" onClick={onRemove}>
          Remove layer {index + 1}
        </button>
      </div>
    </fieldset>
  );
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api, fieldErrors, must, type Schemas } from '../api/client';
import { useSession } from '../session';
import { settingsQueries } from '../settings/queries';
import { SelectField, TextField } from '../ui/fields';
import { FormShell } from '../ui/form-shell';
import { isDay, LayerFields, type LayerInput, newLayer, type ScheduleInput } from './layer-fields';
import { schedulesChanged } from './queries';

/** The zones the browser knows, UTC first: the API accepts the same IANA names. */
const ZONES = ['UTC', ...Intl.supportedValuesOf('timeZone').filter((z) => z !== 'UTC')];

/** A schedule as the form edits it: its request body (members by user id; a layer keeps its id). */
function inputOf(schedule: Schemas['Schedule']): ScheduleInput {
  return {
    name: schedule.name,
    time_zone: schedule.time_zone,
    layers: schedule.layers.map((l) => ({
      ...l,
      members: l.members.map((m) => m.id),
      restrictions: l.restrictions?.map((r) => ({ ...r, days: r.days.filter(isDay) })),
    })),
  };
}

/**
 * Create or edit a schedule (admins): name, zone and layers, lowest first (a higher layer wins
 * where it has someone). The API's field errors are shown at their fields.
 */
export function ScheduleForm({ editing, onDone }: { editing?: Schemas['Schedule']; onDone?: () => void }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { me } = useSession();
  const users = useQuery(settingsQueries.users());
  const [input, setInput] = useState<ScheduleInput>(() =>
    editing
      ? inputOf(editing)
      : {
          name: '',
          time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC',
          layers: [newLayer(me.user?.id ?? '', 1)],
        },
  );
  const save = useMutation({
    mutationFn: () =>
      editing
        ? must(api.PUT('/v1/schedules/{id}', { params: { path: { id: editing.id } }, body: input }))
        : must(api.POST('/v1/schedules', { body: input })),
    onSuccess: async (saved) => {
      await schedulesChanged(queryClient);
      if (editing) onDone?.();
      else navigate(`/on-call/${saved.id}`);
    },
  });
  const errors = fieldErrors(save.error);
  const people = (users.data ?? []).flatMap((u) =>
    u.status === 'active' ? [{ value: u.id, label: u.name ? `${u.name} (${u.email})` : u.email }] : [],
  );
  const setLayer = (i: number, layer: LayerInput) =>
    setInput({ ...input, layers: input.layers.map((l, j) => (j === i ? layer : l)) });
  return (
    <FormShell
      title={editing ? `Edit ${editing.name}` : 'New schedule'}
      heading={false}
      browserChecks
      className="stack"
      send={save}
      submitLabel={editing ? 'Save schedule' : 'Create schedule'}
      failed="The schedule was not saved."
      buttons={
        editing && onDone ? (
          <button type="button" onClick={onDone}>
            Cancel
          </button>
        ) : null
      }
      after={
        <>
          <p className="muted">Layers are listed lowest first: a later layer wins wherever it has someone.</p>
          {input.layers.map((layer, i) => (
            <LayerFields
              key={layer.id ?? `new-${i}`}
              index={i}
              layer={layer}
              zone={input.time_zone}
              people={people}
              errors={errors}
              onChange={(next) => setLayer(i, next)}
              onRemove={() => setInput({ ...input, layers: input.layers.filter((_, j) => j !== i) })}
            />
          ))}
          <div className="row">
            <button
              type="button"
              onClick={() =>
                setInput({
                  ...input,
                  layers: [...input.layers, newLayer(me.user?.id ?? '', input.layers.length + 1)],
                })
              }
            >
              Add layer
            </button>
          </div>
        </>
      }
    >
      <TextField
        label="Name"
        value={input.name}
        onChange={(name) => setInput({ ...input, name })}
        required
        error={errors.name}
      />
      <SelectField
        label="Time zone"
        value={input.time_zone}
        onChange={(time_zone) => setInput({ ...input, time_zone })}
        options={ZONES}
        error={errors.time_zone}
        hint="Handoffs and restrictions are wall-clock times here"
      />
    </FormShell>
  );
}

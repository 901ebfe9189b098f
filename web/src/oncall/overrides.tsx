import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, fieldErrors, must, type Schemas } from '../api/client';
import { useSession } from '../session';
import { settingsQueries } from '../settings/queries';
import { Empty, ErrorNote } from '../ui/feedback';
import { SelectField, TextField } from '../ui/fields';
import { FormShell } from '../ui/form-shell';
import { Table } from '../ui/table';
import { schedulesChanged } from './queries';
import { PersonCell, personWords } from './timeline';
import { instantOfLocal, zoneWords } from './zone-time';

type Schedule = Schemas['Schedule'];

/**
 * A schedule's overrides: the list (each removable by its person or an admin) and a form putting
 * someone on call for a period, times in the schedule's zone. A member may put only themselves;
 * the API's refusal of anyone else is shown as it says it.
 */
export function Overrides({ schedule }: { schedule: Schedule }) {
  const queryClient = useQueryClient();
  const { me, canWrite } = useSession();
  const zone = schedule.time_zone;
  const remove = useMutation({
    mutationFn: (overrideId: string) =>
      must(
        api.DELETE('/v1/schedules/{id}/overrides/{override_id}', {
          params: { path: { id: schedule.id, override_id: overrideId } },
        }),
      ),
    onSuccess: () => schedulesChanged(queryClient),
  });
  const live = schedule.overrides.filter((o) => Date.parse(o.ends_at) > Date.now());
  return (
    <>
      <ErrorNote error={remove.error} title="The override was not removed." />
      {live.length === 0 ? (
        <Empty title="No overrides now or ahead.">Take a shift above, or put someone on call below.</Empty>
      ) : (
        <Table
          label="Overrides"
          caption={<>Overrides now and ahead, in {zone}</>}
          rows={live}
          rowKey={(o) => o.id}
          columns={[
            { header: 'On call', cell: (o) => <PersonCell user={o.user} myId={me.user?.id} /> },
            { header: 'From', cell: (o) => zoneWords(o.starts_at, zone) },
            { header: 'To', cell: (o) => zoneWords(o.ends_at, zone) },
            canWrite && {
              header: <span className="visually-hidden">Actions</span>,
              cell: (o) => (
                <button
                  type="button"
                  disabled={remove.isPending}
                  aria-label={`Remove the override of ${personWords(o.user)} from ${zoneWords(o.starts_at, zone)}`}
                  onClick={() => remove.mutate(o.id)}
                >
                  Remove
                </button>
              ),
            },
          ]}
        />
      )}
      {canWrite && me.user ? <OverrideForm schedule={schedule} myId={me.user.id} /> : null}
    </>
  );
}

function OverrideForm({ schedule, myId }: { schedule: Schedule; myId: string }) {
  const queryClient = useQueryClient();
  const users = useQuery(settingsQueries.users());
  const zone = schedule.time_zone;
  const [userId, setUserId] = useState(myId);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const add = useMutation({
    mutationFn: () =>
      must(
        api.POST('/v1/schedules/{id}/overrides', {
          params: { path: { id: schedule.id } },
          body: {
            user_id: userId,
            starts_at: instantOfLocal(from, zone) ?? from,
            ends_at: instantOfLocal(to, zone) ?? to,
          },
        }),
      ),
    onSuccess: async () => {
      setFrom('');
      setTo('');
      await schedulesChanged(queryClient);
    },
  });
  const errors = fieldErrors(add.error);
  const people = (users.data ?? []).flatMap((u) =>
    u.status === 'active'
      ? [{ value: u.id, label: `${u.name ?? u.email}${u.id === myId ? ' (you)' : ''}` }]
      : [],
  );
  return (
    <FormShell
      title="Put someone on call"
      browserChecks
      className="stack"
      send={add}
      submitLabel="Add override"
      failed="The override was not added."
      before={
        <p className="muted">Times in {zone}. A member may put only themselves on call; an admin anyone.</p>
      }
    >
      <SelectField
        label="Who"
        value={userId}
        onChange={setUserId}
        options={people.length > 0 ? people : [{ value: myId, label: 'You' }]}
        error={errors.user_id}
      />
      <TextField
        label="From"
        type="datetime-local"
        value={from}
        onChange={setFrom}
        required
        error={errors.starts_at}
      />
      <TextField
        label="To"
        type="datetime-local"
        value={to}
        onChange={setTo}
        required
        error={errors.ends_at}
      />
    </FormShell>
  );
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, must } from '../api/client';
import { FinalShifts } from '../oncall/final-shifts';
import { Overrides } from '../oncall/overrides';
import { scheduleQueries, schedulesChanged } from '../oncall/queries';
import { ScheduleForm } from '../oncall/schedule-form';
import { personWords, Timeline } from '../oncall/timeline';
import { dayStart, WINDOW_DAYS, zoneWords } from '../oncall/zone-time';
import { useSession } from '../session';
import { ConfirmButton } from '../ui/confirm';
import { Empty, ErrorNote, Loading } from '../ui/feedback';
import { Page, Section } from '../ui/page';
import { Table } from '../ui/table';

/** On-call (docs/on-call.md "Console"): the account's schedules; admins create one here. */
export function OnCallPage() {
  const { isAdmin } = useSession();
  const schedules = useQuery(scheduleQueries.list());
  return (
    <Page title="On-call">
      <Section title="Schedules">
        <ErrorNote error={schedules.error} title="The schedules could not be loaded." />
        {schedules.isPending ? (
          <Loading what="schedules" />
        ) : (schedules.data ?? []).length === 0 ? (
          <Empty title="No schedules yet.">
            A schedule says who is on call, by rotation, in layers, with overrides.
            {isAdmin ? ' Make the first with the form below.' : ' An admin makes them.'}
          </Empty>
        ) : (
          <Table
            label="Schedules"
            rows={schedules.data ?? []}
            rowKey={(s) => s.id}
            columns={[
              { header: 'Schedule', cell: (s) => <Link to={`/on-call/${s.id}`}>{s.name}</Link> },
              { header: 'Time zone', cell: (s) => s.time_zone },
              { header: 'Layers', cell: (s) => s.layers.map((l) => l.name).join(', ') || '—' },
              {
                header: 'People',
                cell: (s) =>
                  [...new Map(s.layers.flatMap((l) => l.members).map((m) => [m.id, m])).values()]
                    .map(personWords)
                    .join(', ') || '—',
              },
            ]}
          />
        )}
      </Section>
      {isAdmin ? (
        <Section title="New schedule">
          <ScheduleForm />
        </Section>
      ) : null}
    </Page>
  );
}

/**
 * One schedule: two weeks at a glance (layers, overrides, the final schedule) in its zone, the
 * final schedule shift by shift with "Take this shift", the overrides, and for admins the editor.
 */
export function SchedulePage() {
  const { id = '' } = useParams();
  const { isAdmin } = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const schedule = useQuery(scheduleQueries.one(id));
  const [fortnight, setFortnight] = useState(0);
  const [editing, setEditing] = useState(false);
  const zone = schedule.data?.time_zone ?? 'UTC';
  // Midnight today in the schedule's zone, a fortnight at a time: stable while the page is open.
  const [today] = useState(() => Date.now());
  const from = dayStart(zone, today, fortnight * WINDOW_DAYS);
  const to = dayStart(zone, today, (fortnight + 1) * WINDOW_DAYS);
  const shifts = useQuery({ ...scheduleQueries.shifts(id, from, to), enabled: schedule.isSuccess });
  const remove = useMutation({
    mutationFn: () => must(api.DELETE('/v1/schedules/{id}', { params: { path: { id } } })),
    onSuccess: async () => {
      await schedulesChanged(queryClient);
      navigate('/on-call');
    },
  });
  if (schedule.isPending) return <Loading what="the schedule" />;
  if (!schedule.data)
    return (
      <Page title="Schedule">
        <ErrorNote error={schedule.error} title="The schedule could not be loaded." />
        <Link to="/on-call">All schedules</Link>
      </Page>
    );
  const s = schedule.data;
  return (
    <Page
      title={s.name}
      actions={
        isAdmin ? (
          <>
            <button type="button" onClick={() => setEditing(!editing)}>
              {editing ? 'Close the editor' : 'Edit schedule'}
            </button>
            <ConfirmButton
              label="Delete schedule"
              question={`Delete the schedule ${s.name}? Its calendar feeds stop working. This cannot be undone.`}
              confirmLabel="Delete"
              onConfirm={() => remove.mutateAsync().catch(() => undefined)}
            />
          </>
        ) : null
      }
    >
      <p className="muted">
        <Link to="/on-call">All schedules</Link> · Times in {s.time_zone}.
      </p>
      <ErrorNote error={remove.error} title="The schedule was not deleted." />
      {editing ? (
        <Section title={`Edit ${s.name}`}>
          <ScheduleForm editing={s} onDone={() => setEditing(false)} />
        </Section>
      ) : null}
      <Section
        title="Two weeks at a glance"
        actions={
          <div className="row">
            <button type="button" onClick={() => setFortnight(fortnight - 1)}>
              Earlier
            </button>
            <button type="button" disabled={fortnight === 0} onClick={() => setFortnight(0)}>
              From today
            </button>
            <button type="button" onClick={() => setFortnight(fortnight + 1)}>
              Later
            </button>
          </div>
        }
      >
        <p className="muted" aria-live="polite">
          {zoneWords(from, zone)} to {zoneWords(to, zone)}
        </p>
        <ErrorNote error={shifts.error} title="The shifts could not be loaded." />
        {shifts.data ? <Timeline schedule={s} shifts={shifts.data} /> : <Loading what="the shifts" />}
      </Section>
      <Section title="Final schedule">
        {shifts.data ? (
          shifts.data.shifts.length === 0 ? (
            <Empty title="Nobody is on call in these two weeks." />
          ) : (
            <FinalShifts scheduleId={s.id} zone={zone} shifts={shifts.data} />
          )
        ) : null}
      </Section>
      <Section title="Overrides">
        <Overrides schedule={s} />
      </Section>
    </Page>
  );
}

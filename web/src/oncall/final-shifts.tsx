import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, must, type Schemas } from '../api/client';
import { useSession } from '../session';
import { ErrorNote, Notice } from '../ui/feedback';
import { Table } from '../ui/table';
import { schedulesChanged } from './queries';
import { PersonCell, personWords } from './timeline';
import { zoneWords } from './zone-time';

type Shift = Schemas['ScheduleShifts']['shifts'][number];

/**
 * The final schedule of the window shift by shift, with "Take this shift" on each shift held by
 * someone else: an override putting the signed-in person on call over exactly that shift (as
 * much of it as the window shows). The API's refusal is shown as it says it.
 */
export function FinalShifts({
  scheduleId,
  zone,
  shifts,
}: {
  scheduleId: string;
  zone: string;
  shifts: Schemas['ScheduleShifts'];
}) {
  const queryClient = useQueryClient();
  const { me, canWrite } = useSession();
  const myId = me.user?.id;
  const take = useMutation({
    mutationFn: (shift: Shift) =>
      must(
        api.POST('/v1/schedules/{id}/overrides', {
          params: { path: { id: scheduleId } },
          body: { user_id: myId ?? '', starts_at: shift.start, ends_at: shift.end },
        }),
      ),
    onSuccess: () => schedulesChanged(queryClient),
  });
  const source = (s: Shift) => (s.override_id ? 'Override' : s.layer ? `Layer ${s.layer.name}` : '');
  return (
    <>
      <ErrorNote error={take.error} title="The shift was not taken." />
      {take.isSuccess && !take.isPending ? <Notice>You are on call for that shift now.</Notice> : null}
      <Table
        label="Final schedule"
        caption={<>The final schedule, shift by shift, in {zone}</>}
        rows={shifts.shifts}
        rowKey={(s) => s.start}
        columns={[
          { header: 'On call', cell: (s) => <PersonCell user={s.user} myId={myId} /> },
          { header: 'From', cell: (s) => zoneWords(s.start, zone) },
          { header: 'To', cell: (s) => zoneWords(s.end, zone) },
          { header: 'From where', cell: source },
          canWrite &&
            myId && {
              header: <span className="visually-hidden">Actions</span>,
              cell: (s) =>
                s.user.id === myId ? null : (
                  <button
                    type="button"
                    disabled={take.isPending}
                    aria-label={`Take this shift: ${personWords(s.user)}, ${zoneWords(s.start, zone)} to ${zoneWords(s.end, zone)}`}
                    onClick={() => take.mutate(s)}
                  >
                    Take this shift
                  </button>
                ),
            },
        ]}
      />
    </>
  );
}

import type { Schemas } from '../api/client';
import { daysOf, zoneWords } from './zone-time';

type Schedule = Schemas['Schedule'];
type Shifts = Schemas['ScheduleShifts'];
type Person = Schemas['SchedulePerson'];

/** A person as people read them: the name, else the address, else a former member. */
export const personWords = (p: Person) => p.name ?? p.email ?? 'a former member';

/** A person on call, "(you)" beside the one signed in. */
export function PersonCell({ user, myId }: { user: Person & { id: string }; myId: string | undefined }) {
  return (
    <>
      {personWords(user)}
      {user.id === myId ? <span className="muted"> (you)</span> : null}
    </>
  );
}

interface Bar {
  key: string;
  who: string;
  start: string;
  end: string;
  /** Said after the name: where the shift comes from. */
  note?: string;
}

/** One row of the timeline: its heading and its shifts as bars placed on the window (a list, in time order). */
function Row({
  id,
  title,
  kind,
  bars,
  from,
  to,
  zone,
}: {
  id: string;
  title: string;
  kind: 'layer' | 'override' | 'final';
  bars: Bar[];
  from: number;
  to: number;
  zone: string;
}) {
  const span = to - from;
  return (
    <div className={`tl-row tl-row-${kind}`}>
      <h3 className="tl-title" id={id}>
        {title}
      </h3>
      {bars.length === 0 ? (
        <p className="tl-none muted">Nobody in these two weeks.</p>
      ) : (
        <ol className="tl-track" aria-labelledby={id}>
          {bars.map((bar) => {
            const start = Math.max(Date.parse(bar.start), from);
            const end = Math.min(Date.parse(bar.end), to);
            return (
              <li
                key={bar.key}
                className={`tl-shift tl-${kind}`}
                style={{
                  left: `${((start - from) / span) * 100}%`,
                  width: `${((end - start) / span) * 100}%`,
                }}
                title={`${bar.who}${bar.note ? ` (${bar.note})` : ''}: ${zoneWords(bar.start, zone)} to ${zoneWords(bar.end, zone)}`}
              >
                <span className="tl-who">
                  {kind === 'override' ? 'Override: ' : ''}
                  {bar.who}
                </span>
                <span className="visually-hidden">
                  {bar.note ? ` (${bar.note})` : ''}, {zoneWords(bar.start, zone)} to{' '}
                  {zoneWords(bar.end, zone)}
                </span>
              </li>
            );
          })}
        </ol>
      )}
    </div>
  );
}

/**
 * Two weeks of a schedule at a glance (issue 55 item 1): each layer's own shifts (lowest first),
 * the overrides, and the final schedule they make, on one day grid in the schedule's zone. Bars
 * carry the person's name and their times in words (a screen reader reads each row as a list);
 * overrides are hatched and the final schedule outlined, so nothing is told by colour alone.
 */
export function Timeline({ schedule, shifts }: { schedule: Schedule; shifts: Shifts }) {
  const zone = schedule.time_zone;
  const from = Date.parse(shifts.from);
  const to = Date.parse(shifts.to);
  const days = daysOf(zone, shifts.from);
  const overrides = schedule.overrides.filter(
    (o) => Date.parse(o.ends_at) > from && Date.parse(o.starts_at) < to,
  );
  const layerName = (id: string | null) => shifts.layers.find((l) => l.id === id)?.name;
  return (
    <div className="timeline">
      <div className="tl-days" aria-hidden="true">
        {days.map((day) => (
          <span key={day.start} style={{ left: `${((day.start - from) / (to - from)) * 100}%` }}>
            {day.label}
          </span>
        ))}
      </div>
      {shifts.layers.map((layer, i) => (
        <Row
          key={layer.id}
          id={`tl-layer-${layer.id}`}
          title={`Layer ${i + 1}: ${layer.name}`}
          kind="layer"
          from={from}
          to={to}
          zone={zone}
          bars={layer.shifts.map((s) => ({
            key: s.start,
            who: personWords(s.user),
            start: s.start,
            end: s.end,
          }))}
        />
      ))}
      <Row
        id="tl-overrides"
        title="Overrides"
        kind="override"
        from={from}
        to={to}
        zone={zone}
        bars={overrides.map((o) => ({
          key: o.id,
          who: personWords(o.user),
          start: o.starts_at,
          end: o.ends_at,
        }))}
      />
      <Row
        id="tl-final"
        title="Final schedule"
        kind="final"
        from={from}
        to={to}
        zone={zone}
        bars={shifts.shifts.map((s) => ({
          key: s.start,
          who: personWords(s.user),
          start: s.start,
          end: s.end,
          note: s.override_id ? 'override' : (layerName(s.layer?.id ?? null) ?? ''),
        }))}
      />
    </div>
  );
}

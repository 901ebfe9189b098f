import { useQuery } from '@tanstack/react-query';
import type { Schemas } from '../api/client';
import { Time } from '../ui/bits';
import { Empty, ErrorNote, Loading } from '../ui/feedback';
import { Section } from '../ui/page';
import { onCallQueries } from './queries';

type Row = Schemas['WhoIsOnCall']['on_call'][number];

/** A person as people read them: the name, else the address, else a former member. */
const personWords = (user: NonNullable<Row['user']>) => user.name ?? user.email ?? 'a former member';

/**
 * "On call now" on the entity page (issue 55 item 5): per owning team, who is on call now and
 * until when, with the way there (team, how it owns the entity, its schedule); an entity without
 * an owning team says so and how to give it one.
 */
export function OnCallNow({ entityId }: { entityId: string }) {
  const who = useQuery(onCallQueries.entity(entityId));
  return (
    <Section title="On call now">
      <ErrorNote error={who.error} title="Who is on call could not be loaded." />
      {who.isPending ? (
        <Loading what="who is on call" />
      ) : who.data && who.data.on_call.length === 0 ? (
        <Empty title="No team owns this entity.">
          <p>{who.data.note}</p>
        </Empty>
      ) : (
        <ul className="plain">
          {(who.data?.on_call ?? []).map((row) => (
            <li key={`${row.path.team?.id}:${row.path.schedule?.id}`}>
              {row.user ? <strong>{personWords(row.user)}</strong> : <span className="muted">Nobody</span>}
              {row.user && row.until ? (
                <>
                  {' '}
                  until <Time iso={row.until} />
                </>
              ) : null}
              <br />
              <span className="muted">
                {row.path.team ? `Team ${row.path.team.name}` : ''}
                {row.path.ownership === 'blueprint_default' ? ' (owns the blueprint by default)' : ''}
                {row.path.schedule ? ` · schedule ${row.path.schedule.name}` : ''}
                {row.layer ? ` · ${row.layer.name}` : ''}
                {row.override_id ? ' · override' : ''}
                {row.note ? ` · ${row.note}` : ''}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

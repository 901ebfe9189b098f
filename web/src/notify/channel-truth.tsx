import { useQuery } from '@tanstack/react-query';
import type { Schemas } from '../api/client';
import { StateBadge, Time } from '../ui/bits';
import { Empty, ErrorNote, Loading } from '../ui/feedback';
import { Section } from '../ui/page';
import { Table } from '../ui/table';
import { notifyQueries } from './queries';

type Truth = Schemas['AlertSimulation']['channels'][number];

/** What holds the truth back, in words. */
const HOLDS: Record<NonNullable<Truth['held']>['by'], string> = {
  cooldown: 'the cooldown',
  maintenance: 'a maintenance window',
  flapping: 'flap damping',
  upstream: 'a down upstream',
  group: "the group's wait",
  silenced: 'silence',
  recovery_off: 'recovery alerts being off',
};

/**
 * "What its channels were told" (DECISIONS.md "Alert truth (wave 5)", Visible truth): per channel
 * the entity's state reaches or that was told anything of it, the last word it was sent and when,
 * and while that is not the entity's state, what holds the truth back and until when.
 */
export function ChannelTruth({ entityId, state }: { entityId: string; state: string }) {
  const told = useQuery(notifyQueries.told(entityId, state));
  return (
    <Section title="What its channels were told">
      <ErrorNote error={told.error} title="What the channels were told could not be loaded." />
      {told.isPending ? (
        <Loading what="what the channels were told" />
      ) : (told.data?.channels ?? []).length === 0 ? (
        <Empty title="No channel hears of this entity." />
      ) : (
        <Table
          label="What each channel was told"
          rows={told.data?.channels ?? []}
          rowKey={(c) => c.channel_id}
          columns={[
            { header: 'Channel', cell: (c) => c.channel_name },
            {
              header: 'Last told',
              cell: (c) => (c.last_told ? <StateBadge state={c.last_told.state} /> : 'nothing yet'),
            },
            { header: 'When', cell: (c) => (c.last_told ? <Time iso={c.last_told.at} /> : '—') },
            { header: 'Not yet told because', cell: (c) => <Held truth={c} /> },
          ]}
        />
      )}
    </Section>
  );
}

function Held({ truth }: { truth: Truth }) {
  const { held } = truth;
  if (!held) return <>—</>;
  return (
    <>
      held by {HOLDS[held.by]}
      {held.until ? (
        <>
          {' '}
          until <Time iso={held.until} />
        </>
      ) : held.by === 'upstream' ? (
        ' until the upstream recovers'
      ) : (
        ' (no end)'
      )}
    </>
  );
}

import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api, must, type Schemas } from '../api/client';
import { Time } from '../ui/bits';
import { Empty, ErrorNote } from '../ui/feedback';
import { SelectField } from '../ui/fields';
import { Section } from '../ui/page';
import { Table } from '../ui/table';

type Answer = Schemas['AlertSimulation'];
type Decision = Answer['decisions'][number];
type ToState = NonNullable<Answer['to_state']>;

/** How the alert reaches a channel, in words. */
const PATHS: Record<string, string> = {
  own: "the check's own channel",
  attached: 'attached to the check',
  route: 'a route',
};

/** What happens, in words. */
const OUTCOMES: Record<Decision['outcome'], string> = {
  send: 'sent',
  skip: 'not sent',
  defer: 'sent later',
  fold: 'folded into a digest',
  group: 'grouped',
};

/**
 * "Why would I (not) be paged?" (docs/notifications.md): asks the notifier what it would do for
 * each channel if the check's entity (or the entity) changed to a chosen state now, and shows the
 * decisions in words. It sends and writes nothing, so read-only keys use it too.
 */
export function WhyPaged({ subject }: { subject: { check_id: string } | { entity_id: string } }) {
  const [toState, setToState] = useState<ToState>('down');
  const ask = useMutation({
    mutationFn: (to_state: ToState) =>
      must(api.POST('/v1/notify/simulate', { body: { ...subject, to_state } as never })),
  });
  const byEntity = 'entity_id' in subject;
  return (
    <Section title="Why would I (not) be paged?">
      {/* Not a form: it asks, it changes nothing (read-only pages hold no form). */}
      <div className="form-grid">
        <SelectField
          label="If it went"
          value={toState}
          onChange={(v) => setToState(v as ToState)}
          options={['down', 'degraded', 'up']}
        />
        <button type="button" disabled={ask.isPending} onClick={() => ask.mutate(toState)}>
          Why would I (not) be paged?
        </button>
      </div>
      <ErrorNote error={ask.error} title="The simulation could not be run." />
      {ask.data ? <Decisions answer={ask.data} byEntity={byEntity} /> : null}
    </Section>
  );
}

function Decisions({ answer, byEntity }: { answer: Answer; byEntity: boolean }) {
  const sent = answer.decisions.filter((d) => d.kind === 'alert' && d.outcome === 'send').length;
  const caption = `If ${answer.entity.name} (now ${answer.entity.state}) went ${answer.to_state} now`;
  return (
    <>
      <p>
        {caption}:{' '}
        {sent === 0 ? 'nobody would be alerted at once' : `${sent} channel(s) would be alerted at once`}.
        Nothing was sent.
      </p>
      {answer.decisions.length === 0 ? (
        <Empty title="No decisions." />
      ) : (
        // One decision per check, kind and channel (the API unites channels reached twice).
        <Table
          label="What would happen"
          rows={answer.decisions}
          rowKey={(d) => `${d.check_id}-${d.kind}-${d.channel_id}`}
          columns={[
            byEntity && { header: 'Check', cell: (d) => d.check_name ?? '—' },
            {
              header: 'Channel',
              cell: (d) =>
                `${d.kind === 'escalation' ? 'Escalation to ' : ''}${d.channel_name ?? 'no channel'}`,
            },
            { header: 'Reached as', cell: (d) => (d.path ? PATHS[d.path] : '—') },
            { header: 'Outcome', cell: (d) => OUTCOMES[d.outcome] },
            { header: 'Why', cell: (d) => d.reason },
            { header: 'When', cell: (d) => <When decision={d} /> },
          ]}
        />
      )}
    </>
  );
}

function When({ decision: d }: { decision: Decision }) {
  const at = d.escalation_at ?? d.due_at ?? d.repeat_at;
  if (!at) return d.outcome === 'send' ? <>now</> : <>—</>;
  const what = d.escalation_at ? 'at ' : d.due_at ? 'at ' : 'now; first repeat ';
  return (
    <>
      {what}
      <Time iso={at} />
    </>
  );
}

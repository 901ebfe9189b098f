import { namesEntity, requiredEntity, type ToolKitDeps } from '../../catalog/entities.ts';
import type { Simulator } from '../../notify/compose.ts';
import { ValidationError } from '../../platform/errors.ts';
import { type BuiltinTool, optionalString, READS, requiredString } from '../../platform/mcp-tool.ts';
import { toolResult } from '../../platform/tool-answers.ts';
import { explainAlertingInput } from './schemas.ts';

/** explain_alerting: POST /v1/notify/simulate as a tool, "why would I (not) be paged", in words. */

/** What it takes, bound by notify's mount: the notifier's decisions without sending. */
type ExplainDeps = ToolKitDeps & { simulator: Simulator };

type ChannelTruth = Awaited<ReturnType<Simulator['simulate']>>['channels'][number];

/** A channel's last word and what holds the truth back, in words. */
function toldWords(c: ChannelTruth): string {
  const word = c.last_told
    ? `told ${c.last_told.state} (${c.last_told.kind}) at ${c.last_told.at}`
    : 'never told';
  if (!c.held) return word;
  const end = c.held.until
    ? `until ${c.held.until}`
    : c.held.by === 'upstream'
      ? 'until the upstream recovers'
      : 'with no end';
  return `${word}; held by ${c.held.by.replace('_', ' ')} ${end}`;
}

type Decision = Awaited<ReturnType<Simulator['simulate']>>['decisions'][number];

/**
 * The headline counts channels as the decisions list them: each channel once (an entity's checks
 * may each reach it), by what its alert would do: sent at once, sent in a group or storm digest,
 * or deferred.
 */
function headline(decisions: readonly Decision[]): string {
  const channels = (outcomes: readonly Decision['outcome'][]) =>
    new Set(
      decisions
        .filter((d) => d.kind === 'alert' && d.channel_id !== null && outcomes.includes(d.outcome))
        .map((d) => d.channel_id),
    ).size;
  const words = [`${channels(['send'])} channel(s) would be alerted at once`];
  const digest = channels(['group', 'fold']);
  if (digest > 0) words.push(`${digest} in a group or digest notification`);
  const deferred = channels(['defer']);
  if (deferred > 0) words.push(`${deferred} later (deferred)`);
  return words.join(', ');
}

const TO_STATES = ['up', 'down', 'degraded'] as const;
type ToState = (typeof TO_STATES)[number];

export const explainAlerting: BuiltinTool<ExplainDeps> = {
  name: 'explain_alerting',
  offer: {
    toolset: 'on-call-ops',
    order: 20,
    version: '1.1.0',
    description:
      'Why would I (not) be paged: for a check or an entity changing to to_state now, what each channel would get (send, skip, defer) and why; and what each channel was last told about the entity (last_told) and, while that is not its state, what holds the truth back until when (held); sends nothing.',
    inputSchema: explainAlertingInput,
  },
  annotations: { title: 'Explain alerting', ...READS },
  handler: async (deps, caller, args) => {
    const toState = requiredString(args, 'to_state');
    if (!(TO_STATES as readonly string[]).includes(toState))
      throw ValidationError.field('to_state', `one of ${TO_STATES.join(', ')}`);
    const checkId = optionalString(args, 'check_id');
    if ((checkId === undefined) === !namesEntity(args))
      throw ValidationError.field(
        'check_id',
        'Give exactly one of check_id and the entity (entity_id, or blueprint_slug and entity_slug).',
      );
    const to_state = toState as ToState;
    const answer = await deps.simulator.simulate(
      caller.tenantId,
      checkId === undefined
        ? { entity_id: (await requiredEntity(deps, caller.tenantId, args)).id, to_state }
        : { check_id: checkId, to_state },
    );
    const lines = answer.decisions.map(
      (d) =>
        `- ${d.kind === 'escalation' ? 'escalation to ' : ''}${d.channel_name ?? 'no channel'}` +
        `${d.path ? ` (${d.path})` : ''}: ${d.outcome} — ${d.reason}`,
    );
    const told = answer.channels.map((c) => `- ${c.channel_name}: ${toldWords(c)}`);
    const summary =
      `If ${answer.entity.name} (now ${answer.entity.state}) changed to ${to_state} now, ` +
      `${headline(answer.decisions)}. Nothing was sent.\n${lines.join('\n')}` +
      (told.length > 0
        ? `\nWhat each channel was last told about ${answer.entity.name}:\n${told.join('\n')}`
        : '');
    return toolResult(summary, answer);
  },
};

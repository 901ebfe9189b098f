import { readEntityById } from '../../catalog/entities.ts';
import { checkNameOf } from '../../check-types/check-name.ts';
import type { CheckService } from '../../checks/services.ts';
import type { StateChangeEvent } from '../../domain/states.ts';
import { type Clock, isoTime } from '../../platform/clock.ts';
import { NotFoundError } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { Table } from '../../store/table.ts';
import { recipientsOf } from '../channels/registry.ts';
import type { EmailRecipients } from '../email/email-recipients.ts';
import { type GroupPlan, previewPlan } from '../grouping/intercept.ts';
import type { ChannelStore } from '../items/channel-store.ts';
import type { PolicyStore } from '../items/policy-store.ts';
import { channelsForEvent } from '../items/route-channels.ts';
import { escalationJobs } from '../pipeline/escalation.ts';
import { flapLook } from '../pipeline/flapping.ts';
import { readAlertContext } from '../pipeline/job-context.ts';
import { firstRepeat } from '../pipeline/repeat.ts';
import { channelDecisions, runStages } from '../pipeline/stages.ts';
import { isDownState } from '../pipeline/upstream.ts';
import { entityTruth } from './simulate-truth.ts';
import { channelPaths, escalationDecisions, type Reached, type SimulatedDecision } from './simulate-words.ts';

/**
 * "Why was I (not) paged" (DECISIONS.md "Alert model (wave 4)"): what the event job would decide
 * for each channel if an entity changed to `to_state` now, through the same stages (stages.ts),
 * channel union (route-channels.ts), escalation and repeat schedules the flow uses, reading what
 * they read and writing nothing: no record, no job, no marker, no send.
 *
 * A check_id simulates the entity's change caused by that check (its policy, its channels). An
 * entity_id answers "would I be paged if this entity went down": every enabled check of the entity
 * could be the one whose failure moves it, so each is simulated and its decisions carry its id.
 */

export interface SimulateDeps {
  table: Table;
  clock: Clock;
  checkService: Pick<CheckService, 'requireCheck' | 'list'>;
  policies: Pick<PolicyStore, 'get'>;
  channels: Pick<ChannelStore, 'listForCheck' | 'getSharedMany' | 'get'>;
  /** An email channel none of whose recipients confirmed sends nothing (email-recipients.ts). */
  recipients?: Pick<EmailRecipients, 'statesFor'>;
}

type ToState = 'up' | 'down' | 'degraded';

/** Without to_state (an entity only): what each channel was told, and no decisions. */
export type SimulateRequest =
  | { check_id: string; to_state: ToState }
  | { entity_id: string; to_state?: ToState };

type Check = Awaited<ReturnType<SimulateDeps['checkService']['requireCheck']>>;
type Entity = NonNullable<Awaited<ReturnType<typeof readEntityById>>>;

/** The decisions of one check's change of the entity. */
async function simulateCheck(
  deps: SimulateDeps,
  entity: Entity,
  check: Check,
  toState: string,
): Promise<SimulatedDecision[]> {
  const nowMs = deps.clock.now();
  const tag = { check_id: check.id, check_name: checkNameOf(check) };
  const none = (reason: string): SimulatedDecision[] => [
    { ...tag, ...withoutChannel, kind: 'alert', outcome: 'skip', reason },
  ];
  if (!check.enabled) return none('the check is disabled: it changes no state');
  if (entity.state === toState) return none(`no change: ${entity.name} is ${toState} already`);
  const event: StateChangeEvent = {
    entity_id: entity.id,
    entity_name: entity.name,
    check_id: check.id,
    tenant_id: check.tenant_id,
    from_state: entity.state,
    to_state: toState,
    transition_id: newId('trn', nowMs),
    timestamp: isoTime(nowMs),
  };
  // The same stages over the same context; read-only: whether this change would start or continue
  // flapping, without counting it.
  const ctx = await readAlertContext(deps, event, {
    nowMs,
    entity: { known: entity },
    flapping: flapLook(deps, ['start', 'hold']),
  });
  const { policy, own, routing } = ctx;
  const channels = await channelsForEvent(deps, event, own, routing);
  const verdict = await runStages(ctx);
  const paths = channelPaths(own, routing.routes, {
    entity_id: entity.id,
    blueprint_slug: entity.blueprint_slug,
    to_state: toState,
  });
  // The first repeat the flow would schedule after sending (repeat.ts), when the policy repeats.
  const repeat =
    isDownState(toState) && policy.repeat_interval_seconds > 0
      ? firstRepeat(event, policy, nowMs).body
      : undefined;
  const repeatMs = repeat?.kind === 'repeat' ? repeat.due_ms : undefined;
  const { grouping } = ctx;
  const decided = channelDecisions(verdict, channels);
  const alerts = await Promise.all(
    decided.map(async (d): Promise<SimulatedDecision> => {
      const { via, ...reached } = d.channel ? paths.of(d.channel) : noChannel;
      const base = { ...tag, ...reached, kind: 'alert' as const, outcome: d.outcome };
      const addresses = d.outcome === 'send' && d.channel ? recipientsOf(d.channel) : undefined;
      const unconfirmed =
        addresses && deps.recipients
          ? await noConfirmedRecipient(deps.recipients, event.tenant_id, addresses)
          : undefined;
      if (unconfirmed) return { ...base, outcome: 'skip', reason: `${via}; ${unconfirmed}` };
      // Sent, it may still join a route's group or fold into the storm digest (grouping/intercept.ts).
      const plan =
        d.outcome === 'send' && d.channel
          ? await previewPlan(grouping, d.channel.id, event, nowMs)
          : undefined;
      if (plan)
        return {
          ...base,
          outcome: plan.scope === 'route' ? 'group' : 'fold',
          reason: `${via}; ${groupWords(plan)}`,
        };
      if (d.outcome === 'send')
        return {
          ...base,
          reason:
            `sent: ${via}` +
            (repeatMs
              ? `; repeats every ${policy.repeat_interval_seconds} s while down and unacknowledged`
              : ''),
          ...(repeatMs ? { repeat_at: isoTime(repeatMs) } : {}),
        };
      if (d.dueMs !== undefined)
        return {
          ...base,
          reason: `${d.reason}; sent when the cooldown ends if still ${toState}`,
          due_at: isoTime(d.dueMs),
        };
      return { ...base, reason: d.reason ?? d.outcome };
    }),
  );
  const escalations = await escalationJobs(event, routing, nowMs);
  return [...alerts, ...(await escalationDecisions(deps, event, routing.routes, escalations, verdict, tag))];
}

/** A grouped or folded alert in words: which group, and when its digest goes out. */
function groupWords(plan: GroupPlan): string {
  const group = `${plan.by} ${plan.name}`;
  return plan.scope === 'route'
    ? `grouped by ${group}: one notification for the group after ${plan.waitSeconds} s, updates at most every ${plan.intervalSeconds} s`
    : `folded into the ${group} digest: the channel had its individual alerts of the last minute (alert_fold_per_minute)`;
}

const noChannel: Reached = {
  channel_id: null,
  channel_name: null,
  channel_type: null,
  path: null,
  route_id: null,
  via: '',
};

const { via: _via, ...withoutChannel } = noChannel;

/** The skip reason of an email to these addresses when none is confirmed (as the email gate logs it). */
async function noConfirmedRecipient(
  recipients: Pick<EmailRecipients, 'statesFor'>,
  tenantId: string,
  to: readonly string[],
): Promise<string | undefined> {
  const states = await recipients.statesFor(tenantId, to);
  if ([...states.values()].includes('confirmed')) return undefined;
  return `no confirmed recipient: ${to.length} address(es) pending confirmation by the link emailed to them`;
}

/** Answers what would happen to each channel if the entity changed to `to_state` now; sends and writes nothing. */
export function createSimulator(deps: SimulateDeps) {
  const entityOf = async (tenantId: string, entityId: string): Promise<Entity> => {
    const entity = await readEntityById(deps.table, tenantId, entityId);
    if (!entity) throw new NotFoundError('entity');
    return entity;
  };
  return {
    async simulate(tenantId: string, request: SimulateRequest) {
      let entity: Entity;
      let checks: Check[];
      if ('check_id' in request) {
        const check = await deps.checkService.requireCheck(tenantId, request.check_id);
        entity = await entityOf(tenantId, check.entity_id);
        checks = [check];
      } else {
        entity = await entityOf(tenantId, request.entity_id);
        checks =
          request.to_state === undefined
            ? []
            : (await deps.checkService.list(tenantId, { entity_id: entity.id })).filter((c) => c.enabled);
      }
      const toState = request.to_state;
      const decisions =
        toState === undefined
          ? []
          : checks.length === 0
            ? [
                {
                  check_id: null,
                  check_name: null,
                  ...withoutChannel,
                  kind: 'alert' as const,
                  outcome: 'skip' as const,
                  reason: 'no enabled checks: the entity changes no state',
                },
              ]
            : (await Promise.all(checks.map((check) => simulateCheck(deps, entity, check, toState)))).flat();
      return {
        entity: { id: entity.id, name: entity.name, state: entity.state },
        to_state: toState ?? null,
        decisions,
        // What each channel knows now (Visible truth): the last word, and what holds the state back.
        channels: await entityTruth(deps, tenantId, entity),
      };
    },
  };
}

export type Simulator = ReturnType<typeof createSimulator>;

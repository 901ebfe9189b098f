import type { EntityState } from '../catalog/entity-items.ts';
import { maintenanceLookup } from '../maintenance/evaluate.ts';
import { type Clock, isoTime } from '../platform/clock.ts';
import type { Table } from '../store/table.ts';
import { type AlertVerdict, alertFacts, decideAlert } from './alert-steps.ts';
import type { ChannelRecord } from './channel-items.ts';
import { type ChannelStore, uniqueChannels } from './channel-store.ts';
import { getDelivery } from './delivery-items.ts';
import { getFlapState } from './flap-state-items.ts';
import { flapOutcomeIfChanged } from './flapping.ts';
import { readGroup } from './grouping/group-items.ts';
import { effectivePolicy } from './notify-deps.ts';
import type { PolicyStore } from './policy-store.ts';
import { truthEvent, untold } from './rejudge.ts';
import { channelsForEvent, eventRouting } from './route-channels.ts';
import { channelName } from './simulate-words.ts';
import { readToldOfEntity, type ToldRecord } from './told-items.ts';
import { isDownState } from './upstream.ts';

/**
 * Visible truth (DECISIONS.md "Alert truth (wave 5)"): for each channel the entity's state reaches
 * now (the causing check's own and attached channels, the other failing checks', matching routes)
 * and each channel told anything of it (told-items.ts), its last word and, while it does not know
 * the state yet, what holds the truth back and until when. The hold is the verdict of the alert
 * steps on the entity's truth now (alert-steps.ts with read-only facts, as rejudge.ts judges it at
 * the end of every hold); a word stored but waiting in a group's batch is held by the group.
 */

export type HoldBy =
  | 'cooldown'
  | 'maintenance'
  | 'flapping'
  | 'upstream'
  | 'group'
  | 'silenced'
  | 'recovery_off';

export interface ChannelTruth {
  channel_id: string;
  channel_name: string;
  channel_type: string;
  last_told: { state: string; at: string; kind: string } | null;
  /** Why the channel does not know the state yet; `until` null: no end (or until an upstream recovers). */
  held: { by: HoldBy; until: string | null } | null;
}

export interface TruthDeps {
  table: Table;
  clock: Clock;
  policies: Pick<PolicyStore, 'get'>;
  channels: Pick<ChannelStore, 'listForCheck' | 'getSharedMany' | 'get'>;
}

const STEP_HOLDS: Record<string, HoldBy> = {
  silenced: 'silenced',
  maintenance: 'maintenance',
  'recovery switch': 'recovery_off',
  flapping: 'flapping',
  cooldown: 'cooldown',
  upstream: 'upstream',
};

/** The hold a verdict names, with its end (epoch ms) when it has one. */
async function holdOf(table: Table, checkId: string, verdict: AlertVerdict): Promise<ChannelTruth['held']> {
  const by = STEP_HOLDS[verdict.step];
  if (!by) return null;
  let untilMs: number | undefined | null;
  if (by === 'maintenance') untilMs = verdict.maintenance?.endsMs;
  else if (by === 'cooldown') untilMs = verdict.dueMs;
  else if (by === 'flapping') untilMs = (await getFlapState(table, checkId))?.settle_due_ms;
  return { by, until: typeof untilMs === 'number' ? isoTime(untilMs) : null };
}

/** A word stored but still waiting in an open batch of its channel's group: that batch's flush time. */
async function groupHold(table: Table, word: ToldRecord): Promise<ChannelTruth['held']> {
  if (word.kind !== 'alert' && word.kind !== 'also_failing') return null;
  const record = await getDelivery(table, word.tenant_id, word.delivery_id);
  if (record?.status !== 'folded' || !record.digest) return null;
  const group = await readGroup(table, {
    tenant_id: word.tenant_id,
    channel_id: word.channel_id,
    group_id: record.digest.group_id,
  });
  return group?.open === record.digest.batch_id
    ? { by: 'group', until: isoTime(group.open_due_ms ?? record.digest.due_ms) }
    : null;
}

/** The channels the truth of `entity` reaches now, then every other channel told anything of it. */
async function channelsOf(
  deps: TruthDeps,
  tenantId: string,
  checkId: string,
  reached: ChannelRecord[],
  told: readonly ToldRecord[],
): Promise<ChannelRecord[]> {
  const known = new Set(reached.map((c) => c.id));
  const extra: ChannelRecord[] = [];
  for (const word of told) {
    if (known.has(word.channel_id)) continue;
    known.add(word.channel_id);
    const channel = await deps.channels.get(word.channel_check_id ?? checkId, word.channel_id, tenantId);
    if (channel) extra.push(channel);
  }
  return [...reached, ...extra];
}

/** Each channel's last word about the entity and what holds the state back from it (see the module comment). */
export async function entityTruth(
  deps: TruthDeps,
  tenantId: string,
  entity: EntityState,
): Promise<ChannelTruth[]> {
  const [told, event] = await Promise.all([
    readToldOfEntity(deps.table, tenantId, entity.id),
    entity.state === 'unknown' ? undefined : truthEvent(deps, tenantId, entity),
  ]);
  const words = new Map(told.map((w) => [w.channel_id, w]));
  let channels: ChannelRecord[] = [];
  let verdict: AlertVerdict | undefined;
  if (event) {
    const nowMs = deps.clock.now();
    const [policy, routing, maintenanceOf] = await Promise.all([
      effectivePolicy(deps, tenantId, event.check_id),
      eventRouting(deps.table, event, entity.blueprint_slug),
      maintenanceLookup(deps.table, deps.clock, tenantId),
    ]);
    const states = entity.check_states ?? {};
    const failing = Object.keys(states)
      .sort()
      .filter((id) => id !== event.check_id && isDownState(states[id] ?? ''));
    const own = (
      await Promise.all([event.check_id, ...failing].map((id) => deps.channels.listForCheck(id)))
    ).flat();
    const reached = await channelsForEvent(deps, event, uniqueChannels(own), routing);
    channels = await channelsOf(deps, tenantId, event.check_id, reached, told);
    if (channels.some((c) => untold(words.get(c.id), entity.state)))
      verdict = await decideAlert(
        alertFacts(
          deps,
          event,
          policy,
          nowMs,
          () => maintenanceOf({ id: entity.id, blueprint_slug: entity.blueprint_slug }),
          async () =>
            (await flapOutcomeIfChanged(deps, event.check_id, policy, nowMs)) === 'hold'
              ? 'flapping'
              : undefined,
        ),
      );
  } else {
    channels = await channelsOf(deps, tenantId, '', [], told);
  }
  return Promise.all(
    channels.map(async (channel): Promise<ChannelTruth> => {
      const word = words.get(channel.id);
      const behind = entity.state !== 'unknown' && untold(word, entity.state);
      const held =
        behind && verdict && event
          ? await holdOf(deps.table, event.check_id, verdict)
          : !behind && word
            ? await groupHold(deps.table, word)
            : null;
      return {
        channel_id: channel.id,
        channel_name: channelName(channel),
        channel_type: channel.channel_type,
        last_told: word ? { state: word.state, at: word.at, kind: word.kind } : null,
        held,
      };
    }),
  );
}

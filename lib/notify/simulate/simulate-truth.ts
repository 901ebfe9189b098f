import type { EntityState } from '../../catalog/entities.ts';
import { isoTime } from '../../platform/clock.ts';
import type { Table } from '../../store/table.ts';
import { getDelivery } from '../items/delivery-items.ts';
import { readGroup } from '../items/group-items.ts';
import { readToldOfEntity, type ToldRecord } from '../items/told-items.ts';
import { judgeTruth, type TruthDeps, truthChannels, untold } from '../pipeline/rejudge.ts';
import type { AlertVerdict } from '../pipeline/stages.ts';
import { channelName } from './simulate-words.ts';

export type { TruthDeps } from '../pipeline/rejudge.ts';

/**
 * Visible truth (DECISIONS.md "Alert truth (wave 5)"): for each channel the entity's state reaches
 * now (the causing check's own and attached channels, the other failing checks', matching routes)
 * and each channel told anything of it (told-items.ts), its last word and, while it does not know
 * the state yet, what holds the truth back and until when. The hold is the verdict of the alert
 * stages on the entity's truth now (stages.ts over a read-only context, as rejudge.ts judges it at
 * the end of every hold); a word stored but waiting in a group's batch is held by the group.
 */

type HoldBy = 'cooldown' | 'maintenance' | 'flapping' | 'upstream' | 'group' | 'silenced' | 'recovery_off';

export interface ChannelTruth {
  channel_id: string;
  channel_name: string;
  channel_type: string;
  last_told: { state: string; at: string; kind: string } | null;
  /** Why the channel does not know the state yet; `until` null: no end (or until an upstream recovers). */
  held: { by: HoldBy; until: string | null } | null;
}

const STEP_HOLDS: Record<string, HoldBy> = {
  silenced: 'silenced',
  maintenance: 'maintenance',
  'recovery switch': 'recovery_off',
  flapping: 'flapping',
  cooldown: 'cooldown',
  upstream: 'upstream',
};

/** The hold a verdict names, with its end when it has one (the stage's `until`). */
function holdOf(verdict: AlertVerdict): ChannelTruth['held'] {
  const by = STEP_HOLDS[verdict.step];
  if (!by) return null;
  return { by, until: verdict.untilMs === null ? null : isoTime(verdict.untilMs) };
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

/** Each channel's last word about the entity and what holds the state back from it (see the module comment). */
export async function entityTruth(
  deps: TruthDeps,
  tenantId: string,
  entity: EntityState,
): Promise<ChannelTruth[]> {
  const judged = await judgeTruth(deps, tenantId, entity, deps.clock.now());
  // Unknown or never changed: only the channels told anything of it, with their words.
  const told = judged ? undefined : await readToldOfEntity(deps.table, tenantId, entity.id);
  const words = judged?.words ?? new Map((told ?? []).map((w) => [w.channel_id, w]));
  const channels =
    judged?.channels ?? (await truthChannels(deps, { check_id: '', tenant_id: tenantId }, told ?? [], []));
  const verdict = judged?.verdict;
  return Promise.all(
    channels.map(async (channel): Promise<ChannelTruth> => {
      const word = words.get(channel.id);
      const behind = entity.state !== 'unknown' && untold(word, entity.state);
      const held =
        behind && verdict ? holdOf(verdict) : !behind && word ? await groupHold(deps.table, word) : null;
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

import { hash } from 'node:crypto';
import type { HeartbeatCheck } from './heartbeat.ts';
import { armedDeadlineMs } from './heartbeat-miss.ts';

/**
 * Slot arithmetic of the scheduler (pure). A check runs on a fixed phase inside its interval,
 * derived from its id, so checks with equal intervals are spread across the interval instead of
 * firing together, and a check keeps its phase across restarts and interval changes.
 */

/** Hashes worked out, kept: every result of a check asks for its shard again (bounded; cleared when full). */
const hashes = new Map<string, number>();
const HASHES_KEPT = 100_000;

function hash32(text: string): number {
  let value = hashes.get(text);
  if (value === undefined) {
    value = hash('sha1', text, 'buffer').readUInt32BE(0);
    if (hashes.size >= HASHES_KEPT) hashes.clear();
    hashes.set(text, value);
  }
  return value;
}

/** Offset of the check inside its interval, in ms: stable per check id, uniform over [0, interval). */
export function phaseOffsetMs(checkId: string, intervalSeconds: number): number {
  return hash32(checkId) % (intervalSeconds * 1000);
}

/** The first slot at or after `nowMs` on the check's phase. */
export function firstSlot(checkId: string, intervalSeconds: number, nowMs: number): number {
  const interval = intervalSeconds * 1000;
  const phase = phaseOffsetMs(checkId, intervalSeconds);
  const base = Math.floor(nowMs / interval) * interval + phase;
  return base >= nowMs ? base : base + interval;
}

/**
 * The slot after `slotMs` has run: one interval later, or, if that is already in the past (the
 * scheduler was down), the next slot after now on the same phase, so a restart never replays a
 * burst of missed runs.
 */
export function nextSlot(slotMs: number, intervalSeconds: number, nowMs: number): number {
  const interval = intervalSeconds * 1000;
  const next = slotMs + interval;
  if (next > nowMs) return next;
  const behind = Math.ceil((nowMs - next) / interval);
  const caughtUp = next + behind * interval;
  return caughtUp > nowMs ? caughtUp : caughtUp + interval;
}

/** The due-index shard of a check. */
export function shardOf(checkId: string, shards: number): number {
  return hash32(`shard:${checkId}`) % shards;
}

/**
 * Sub-keys of a due shard (DynamoDB's write sharding): each check's due entry sits under one of
 * them, so the heartbeats of a burst (each ping moves its entry: 2 WCU) spread over 4 × 64 index
 * partitions at the default 4 shards; 100,000 jobs in one second take ~781 WCU a key, under
 * DynamoDB's 1,000. The generator reads every sub-key of its shard.
 */
export const DUE_SUB_KEYS = 64;

/**
 * The due sub-key of a check (0 .. DUE_SUB_KEYS - 1): a hash of its id of its own, independent of
 * shardOf's, so a shard's checks fill all its sub-keys evenly.
 */
export function dueSubKeyOf(checkId: string): number {
  return hash32(`due:${checkId}`) % DUE_SUB_KEYS;
}

/** What the schedule of a check depends on. */
export interface ScheduledCheck {
  id: string;
  enabled: boolean;
  execution_mode: 'pull' | 'push';
  interval_seconds: number;
  /** Push checks: what their deadline depends on of their config (grace, schedule). */
  heartbeat?: HeartbeatCheck['config'] | undefined;
  last_result_at: string | null;
  last_push_at?: string | null | undefined;
  run_started_at?: string | null | undefined;
  next_run_at: string | null;
}

/**
 * When a check should next be found by the scheduler (ISO time), or null when it is not
 * scheduled: pull checks on their phase (or their existing slot, with `keepExisting`), push
 * checks at their deadline (lib/domain/schedules/heartbeat.ts; one missed already recorded is not missed again).
 */
export function scheduledRunAt(check: ScheduledCheck, nowMs: number, keepExisting: boolean): string | null {
  if (!check.enabled) return null;
  if (check.execution_mode === 'push') {
    const heartbeat = { interval_seconds: check.interval_seconds, config: check.heartbeat ?? {} };
    // Items from before last_push_at existed: the last result stands for the last report.
    const state = { ...check, last_push_at: check.last_push_at ?? check.last_result_at };
    const recorded = check.last_result_at ? Date.parse(check.last_result_at) : null;
    const deadline = armedDeadlineMs(heartbeat, state, recorded);
    return deadline === null ? null : new Date(deadline).toISOString();
  }
  if (keepExisting && check.next_run_at) return check.next_run_at;
  return new Date(firstSlot(check.id, check.interval_seconds, nowMs)).toISOString();
}

import { ZodError } from 'zod';
import { type EntityState, readEntityById } from '../../catalog/entities.ts';
import { checkNameOf } from '../../check-types/check-name.ts';
import { probeSecrets } from '../../check-types/outcome-redaction.ts';
import { getCheckDefinition } from '../../checks/check-items.ts';
import type { CheckDefinitionRecord } from '../../checks/records.ts';
import {
  type LatestResult,
  lastErrorOf,
  latestResultsOf,
  parseTransition,
  readEntityTransition,
  tenantTransitionItems,
} from '../../checks/results.ts';
import { type Redact, redactUrl, secretRedactor } from '../../domain/redaction.ts';
import type { StateChangeEvent } from '../../domain/states.ts';
import type { ProbeDefinition } from '../../probes/types.ts';
import type { Table } from '../../store/table.ts';
import { clip } from '../channels/message.ts';
import type { DeliveryKind } from '../items/delivery-items.ts';
import { humanDuration, payloadKindOf } from '../items/payload-kind.ts';
import type { DigestEvent } from '../items/ports.ts';

/**
 * Why a message is sent (DECISIONS.md "Alert truth (wave 5)", Reason; docs/notifications.md
 * "Reason"): the `reason` of every alert, repeat, escalation and digest event, built here once for
 * alertFor (alert-context.ts) and the digest job, redacted as results are and bounded.
 */

/** The check an alert is about, as read: its definition, gone, or stored in a shape that does not parse. */
export type CheckRead = CheckDefinitionRecord | 'removed' | 'unreadable';

/** Reads the check for an alert's text; a damaged item names it plainly instead of failing the delivery. */
export async function readCheck(table: Table, tenantId: string, checkId: string): Promise<CheckRead> {
  try {
    return (await getCheckDefinition(table, tenantId, checkId)) ?? 'removed';
  } catch (error) {
    if (error instanceof ZodError) return 'unreadable';
    throw error;
  }
}

/** The check's name for humans (the one given, else derived from its type and target: check-name.ts). */
export function checkNameFrom(check: CheckRead): string {
  if (check === 'removed') return 'check removed';
  return check === 'unreadable' ? 'check' : checkNameOf(check);
}

/** A reason's bound, in payloads and texts alike: a longer one is cut with an ellipsis. */
export const MAX_REASON = 300;
/** Failing checks a repeat's or escalation's reason names before "and N more failing". */
const FAILING_NAMED = 3;
/** Newest results read for a reason (a cell check's: slots). */
const RESULTS_READ = 10;
/** A check's own newest results read first (the failure is almost always one of them); RESULTS_READ if they do not decide. */
const RESULTS_FIRST = 3;
/** Digest events whose reasons are read at once. */
const DIGEST_READS_AT_ONCE = 16;
/** A URL written in a text: up to whitespace, a quote or an angle bracket. */
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi;

/**
 * Hides in a text what results hide (docs/api.md "Secrets in results": the check's probe secrets,
 * its header values and URL credentials in every encoding, lib/check-types/outcome-redaction.ts),
 * and in any URL written in it the credentials and secret-looking parameters (url-redaction.ts):
 * an error stored before results were redacted, or one naming another URL, stays safe to send.
 */
export function reasonRedactor(check: CheckRead): Redact {
  const hide = secretRedactor(typeof check === 'object' ? probeSecrets(secretsJob(check)) : []);
  return (text) => hide(text).replace(URL_IN_TEXT, (url) => redactUrl(url));
}

/**
 * What a check's type reads its secrets from (its probe job, as lib/checks/probe-job.ts builds it):
 * http's top-level fields, the other types' config. Built here so the notifier's bundle stays free
 * of the probe path (test/architecture/lean-functions.test.ts).
 */
function secretsJob(check: CheckDefinitionRecord): ProbeDefinition {
  const common = { check_type: check.check_type, timeout_ms: check.timeout_ms };
  return check.check_type === 'http'
    ? { ...common, target_url: check.target_url ?? '', headers: check.headers ?? {} }
    : { ...check.config, ...common };
}

/** A reason as sent: redacted, on one line, at most MAX_REASON characters; null when empty. */
function reasonLine(text: string | null | undefined, redact: Redact): string | null {
  const line = text ? redact(text).replace(/\s+/g, ' ').trim() : '';
  return line === '' ? null : clip(line, MAX_REASON);
}

const failingState = (state: string) => state === 'down' || state === 'degraded';

/**
 * The failing result the results show at `at` (newest first; results after `at` left out, unless
 * none is that old): the streak's newest failed (or degraded) result with a message, before a
 * success ends the streak. Null when the streak says nothing.
 */
function streakFailure(results: readonly LatestResult[], at: string | undefined): LatestResult | null {
  return streakIn(results, at, true) ?? null;
}

/**
 * streakFailure over the newest results only (`complete` false), undefined when they do not decide
 * it; what they decide, all decide the same (their results at or before `at` come first in all's).
 */
function streakIn(
  results: readonly LatestResult[],
  at: string | undefined,
  complete: boolean,
): LatestResult | null | undefined {
  const old = at === undefined ? [] : results.filter((r) => r.checked_at <= at);
  // None as old among the newest: older ones may follow, which the streak would read instead.
  if (at !== undefined && old.length === 0 && !complete) return undefined;
  for (const r of old.length > 0 ? old : results) {
    if (r.success && !r.degraded) return null;
    if (r.error_message.trim() !== '') return r;
  }
  return complete ? null : undefined;
}

/** The first of the results with an error to name (lastErrorOf's rule; inconclusive ones are left out already). */
const firstError = (results: readonly LatestResult[]) =>
  results.find((r) => (!r.success || r.degraded) && r.error_message);

/** What a reason reads, each once per alert or digest part. */
export interface ReasonReads {
  check(id: string): Promise<CheckRead>;
  entity(id: string): Promise<EntityState | undefined>;
  /** The check's failing result's error at `at` (or now), unredacted. */
  failure(id: string, at?: string): Promise<string | null>;
  /** That failing result, when the check is still there (its evidence's link, its source links). */
  failingResult(id: string, at?: string): Promise<LatestResult | null>;
  /** The rule words of the entity's transition `id` (the entity's shard holds it: one get). */
  transitionReason(id: string, entityId: string): Promise<string | null>;
  /** The check's latest error (lastErrorOf), found in the results read for the reason when it is among them. */
  lastError(id: string): Promise<string | null>;
}

/** The reads of one alert (its check and entity already read: `known`) or of one digest part. */
export function reasonReads(
  table: Table,
  tenantId: string,
  known: { check?: [string, CheckRead]; entity?: [string, EntityState | undefined] } = {},
): ReasonReads {
  const memo = new Map<string, Promise<unknown>>();
  const once = <T>(key: string, read: () => Promise<T>): Promise<T> => {
    if (!memo.has(key)) memo.set(key, read());
    return memo.get(key) as Promise<T>;
  };
  if (known.check) memo.set(`check ${known.check[0]}`, Promise.resolve(known.check[1]));
  if (known.entity) memo.set(`entity ${known.entity[0]}`, Promise.resolve(known.entity[1]));
  const read = async (id: string, check: CheckDefinitionRecord, limit: number) =>
    (await latestResultsOf(table, [check], { limit })).get(id) ?? [];
  const results = (id: string, check: CheckDefinitionRecord) =>
    once(`results ${id}`, () => read(id, check, RESULTS_READ));
  // A check's own newest few (a cell check's: its RESULTS_READ slots at once, complete).
  const newest = (id: string, check: CheckDefinitionRecord) =>
    check.cell ? results(id, check) : once(`newest ${id}`, () => read(id, check, RESULTS_FIRST));
  const streak = async (id: string, check: CheckDefinitionRecord, at: string | undefined) => {
    const decided = streakIn(await newest(id, check), at, Boolean(check.cell));
    return decided === undefined ? streakFailure(await results(id, check), at) : decided;
  };
  const reads: ReasonReads = {
    check: (id) => once(`check ${id}`, () => readCheck(table, tenantId, id)),
    entity: (id) => once(`entity ${id}`, () => readEntityById(table, tenantId, id)),
    failure: async (id, at) => {
      const check = await reads.check(id);
      // A removed check's own result items may still be there (lastErrorOf reads them).
      if (typeof check !== 'object') return lastErrorOf(table, id, undefined);
      return (await streak(id, check, at))?.error_message ?? null;
    },
    failingResult: async (id, at) => {
      const check = await reads.check(id);
      if (typeof check !== 'object') return null;
      return streak(id, check, at);
    },
    // lastErrorOf scans a check's newest 20 results (a cell's 5 slots); the first error among the
    // newest 3 or 10 read above is the first among those 20 too, so a check with its own results
    // (no cell) reads its newest few once per alert, and only a window without any error reads on.
    lastError: (id) =>
      once(`last error ${id}`, async () => {
        const check = await reads.check(id);
        if (typeof check !== 'object' || check.cell)
          return lastErrorOf(table, id, typeof check === 'object' ? check : undefined);
        const found = firstError(await newest(id, check)) ?? firstError(await results(id, check));
        return found ? found.error_message : lastErrorOf(table, id, check);
      }),
    transitionReason: (id, entityId) =>
      once(`transition ${id}`, async () => {
        if (id === '') return null;
        const direct = await parsedReason(() => readEntityTransition(table, tenantId, entityId, id));
        if (direct !== undefined) return direct;
        // Not in the entity's shard: a transition of the feed's single partition before the shards.
        const page = await tenantTransitionItems(table, tenantId, {
          range: { from: id, to: id },
          direction: 'asc',
          limit: 1,
        });
        const item = page.items[0];
        return item ? ((await parsedReason(async () => parseTransition(item))) ?? null) : null;
      }),
  };
  return reads;
}

/** A transition's reason, null when its item does not parse, undefined when there is none. */
async function parsedReason(
  read: () => Promise<{ reason: string } | undefined>,
): Promise<string | null | undefined> {
  try {
    return (await read())?.reason;
  } catch (error) {
    if (error instanceof ZodError) return null;
    throw error;
  }
}

/** Why the entity changed: the causing check's failing result at the change, else the transition's rule. */
async function causeOf(reads: ReasonReads, event: StateChangeEvent): Promise<string | null> {
  if (failingState(event.to_state)) {
    const error = await reads.failure(event.check_id, event.timestamp);
    const line = reasonLine(error, reasonRedactor(await reads.check(event.check_id)));
    if (line) return line;
  }
  return reasonLine(
    await reads.transitionReason(event.transition_id, event.entity_id),
    reasonRedactor('removed'),
  );
}

/**
 * Why the entity is failing now (repeats and escalations describe the current state): each check
 * failing now, down ones first, with its latest failure's error ("Orders DB: expected status 200,
 * got 500; Disk: 2 consecutive failures"); the bare error when only the alert's check fails.
 */
async function failingNow(reads: ReasonReads, event: StateChangeEvent): Promise<string | null> {
  const entity = await reads.entity(event.entity_id);
  const failing = Object.entries(entity?.check_states ?? {})
    .filter(([, state]) => failingState(state))
    .sort(([, a], [, b]) => (a === b ? 0 : a === 'down' ? -1 : 1));
  if (failing.length === 0) return null;
  const parts = await Promise.all(
    failing.slice(0, FAILING_NAMED).map(async ([id, state]) => {
      const check = await reads.check(id);
      const error = reasonLine(await reads.failure(id), reasonRedactor(check));
      return { id, text: error ?? state, name: clip(checkNameFrom(check), 100) };
    }),
  );
  const [only] = parts;
  if (failing.length === 1 && only?.id === event.check_id) return only.text;
  const more = failing.length - parts.length;
  const text = parts.map((p) => `${p.name}: ${p.text}`).join('; ');
  return reasonLine(more > 0 ? `${text}; and ${more} more failing` : text, (t) => t);
}

/** The reason of a message of `kind` about `event` (Alert.reason; docs/notifications.md "Reason"). */
export async function reasonOf(
  reads: ReasonReads,
  kind: DeliveryKind | DigestEvent['kind'],
  event: StateChangeEvent,
  flapping?: { changes: number; window_seconds: number },
): Promise<string | null> {
  const payloadKind = kind === 'recovery' ? 'recovery' : payloadKindOf(kind, event);
  switch (payloadKind) {
    case 'test':
    case 'acknowledge':
    case 'digest':
      return null;
    case 'flapping':
      return flapping
        ? `${flapping.changes} state changes in ${humanDuration(flapping.window_seconds)}`
        : null;
    case 'repeat':
    case 'escalation':
      return (await failingNow(reads, event)) ?? causeOf(reads, event);
    default:
      return causeOf(reads, event);
  }
}

/** The reason of each digest event, in order (read DIGEST_READS_AT_ONCE at a time, each check once). */
export async function digestReasons(
  table: Table,
  tenantId: string,
  events: readonly DigestEvent[],
): Promise<DigestEvent[]> {
  const reads = reasonReads(table, tenantId);
  const out: DigestEvent[] = [];
  for (let i = 0; i < events.length; i += DIGEST_READS_AT_ONCE) {
    const batch = events.slice(i, i + DIGEST_READS_AT_ONCE);
    const reasons = await Promise.all(batch.map((e) => reasonOf(reads, e.kind, e.event)));
    batch.forEach((e, j) => {
      out.push({ ...e, reason: reasons[j] ?? null });
    });
  }
  return out;
}

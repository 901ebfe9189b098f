import { setImmediate as nextTurn } from 'node:timers/promises';
import { decodeTime, encodeTime } from 'ulid';
import { stateChangeEvent } from '../checks/records.ts';
import { parseTransition, type TransitionRecord, tenantTransitionItems } from '../checks/results.ts';
import type { SseFrame } from '../http/router.ts';
import { unexpired } from '../store/paging.ts';
import type { Table } from '../store/table.ts';

/**
 * The status stream's events and its position in the tenant's transition feed (`TRN#<tnt>`,
 * sort key = the transition id). Ids are ULIDs, so "after this id" is a key range: a resume needs
 * no lookup, and a position need not be the id of a stored transition.
 */

const STATE_CHANGE_EVENT = 'state_change';

/** One transition as an SSE frame: its id is the resume position. */
export function transitionFrame(t: TransitionRecord): SseFrame {
  return { id: t.id, event: STATE_CHANGE_EVENT, data: JSON.stringify(stateChangeEvent(t)) };
}

const POSITION_EVENT = 'position';

/**
 * A frame that moves the client's Last-Event-ID without a state change (where a stream starts
 * without one, where a polled stream ends). Named, so `onmessage` and `state_change` listeners do
 * not see it; an event rather than a bare `id:` line, which some client libraries ignore.
 */
export function positionFrame(position: string): SseFrame {
  return { id: position, event: POSITION_EVENT, data: JSON.stringify({ position }) };
}

const RESET_EVENT = 'reset';

/**
 * A frame telling the client that transitions it has not seen will not be replayed (its
 * Last-Event-ID is older than the replay reaches back): reload the current state, then apply the
 * events that follow. Its id is where the replay resumes, so a reconnect does not reset again.
 */
export function resetFrame(resumeFrom: string): SseFrame {
  return {
    id: resumeFrom,
    event: RESET_EVENT,
    data: JSON.stringify({ reason: 'replay_limit', resume_from: resumeFrom }),
  };
}

/** The position just before every transition (or, `ich`, incident change) created at or after `ms`. */
export function positionAt(ms: number, prefix: 'trn' | 'ich' = 'trn'): string {
  return `${prefix}_${encodeTime(Math.max(0, Math.floor(ms)), 10)}${'0'.repeat(16)}`;
}

/**
 * When the transition (or position) `id` was created, in epoch milliseconds. An id whose time
 * overflows the ULID range (first character above 7, which the id pattern admits) is later than
 * any clock rather than an error.
 */
export function timeOfPosition(id: string): number {
  const ulid = id.slice('trn_'.length);
  if (ulid.charAt(0) > '7') return Number.POSITIVE_INFINITY;
  return decodeTime(ulid);
}

const PAGE = 200;

/**
 * The tenant's entity transitions after `position`, oldest first, one page; `next` is the position
 * to read on from when more may follow. Expired ones (TTL deletion is lazy) are skipped.
 */
export async function transitionsAfter(
  table: Table,
  tenantId: string,
  position: string,
  nowMs: number,
): Promise<{ transitions: TransitionRecord[]; next: string | undefined }> {
  const page = await tenantTransitionItems(table, tenantId, {
    range: { after: position },
    direction: 'asc',
    limit: PAGE,
  });
  const live = unexpired(nowMs);
  const last = page.items.at(-1);
  return {
    transitions: page.items.filter(live).map(parseTransition),
    next: page.cursor && last ? last.sk : undefined,
  };
}

/**
 * The newest `max` entity transitions after `position`, oldest first, read newest first in bounded
 * pages that yield to the event loop between them. `truncated`: more lay after `position`, and
 * `resumeFrom` is the position just before the ones returned (else it is `position`).
 */
export async function newestTransitions(
  table: Table,
  tenantId: string,
  position: string,
  nowMs: number,
  max: number,
): Promise<{ transitions: TransitionRecord[]; truncated: boolean; resumeFrom: string }> {
  const live = unexpired(nowMs);
  const newestFirst: TransitionRecord[] = [];
  let cursor: string | undefined;
  let read = 0;
  do {
    const page = await tenantTransitionItems(table, tenantId, {
      range: { after: position },
      direction: 'desc',
      // One more than `max` in all, so a truncation is seen without another read.
      limit: Math.min(PAGE, max + 1 - read),
      cursor,
    });
    for (const item of page.items) {
      read += 1;
      if (read > max) {
        const reversed = newestFirst.reverse();
        return { transitions: reversed, truncated: true, resumeFrom: String(item.sk) };
      }
      if (live(item)) newestFirst.push(parseTransition(item));
    }
    cursor = page.cursor;
    await nextTurn();
  } while (cursor !== undefined);
  return { transitions: newestFirst.reverse(), truncated: false, resumeFrom: position };
}

/** True when the tenant has a transition after `position` and at or before `until`. */
export async function anyTransitionBetween(
  table: Table,
  tenantId: string,
  position: string,
  until: string,
): Promise<boolean> {
  if (until <= position) return false;
  const page = await tenantTransitionItems(table, tenantId, {
    range: { from: position, to: until },
    direction: 'asc',
    limit: 2,
  });
  return page.items.some((item) => String(item.sk) > position);
}

/** Ids already sent on one stream, the newest few thousand (a re-read window or a redelivery repeats them). */
export function createSentIds(max = 5000) {
  const ids = new Set<string>();
  return {
    /** True the first time `id` is seen. */
    add(id: string): boolean {
      if (ids.has(id)) return false;
      ids.add(id);
      if (ids.size > max) {
        const oldest = ids.values().next();
        if (!oldest.done) ids.delete(oldest.value);
      }
      return true;
    },
  };
}

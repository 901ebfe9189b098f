import { type Condition, ConditionFailedError, type Table, type WriteOp } from './table.ts';

/**
 * The claim of a send that is attempted again until it arrives (an escalation page, a status
 * page's notice to a subscriber): the stored item of the send is put before anything is sent, and
 * only the job that took it sends. A send that arrived (or was given up on purpose) is never taken
 * again, so a redelivered job sends nothing twice; a failed one is taken again until its attempts
 * are spent; one left taken (`pending`) longer than ABANDONED_CLAIM_MS was abandoned (its job died
 * between the claim and the send: a crash, a killed Lambda) and is taken again, and a younger one
 * asks the job to come back when it would count as abandoned. Each retake is conditional on the
 * attempt it read, so two jobs never take one attempt. Delivery is at least once: a job that dies
 * after the send and before its outcome is written sends again, under the same delivery id.
 */

/** Longer than any send may take (each sender's timeout is under 30 s). */
const ABANDONED_CLAIM_MS = 120_000;

/** Whether this job sends now; if not, whether its job should come back to look again (and when). */
export type ClaimTake =
  | { taken: true; attempt: number }
  | {
      taken: false;
      retryInSeconds?: number;
      /** The last attempt was abandoned and none is left: nobody will send it. */
      abandoned?: true;
    };

/** What the rule reads of a stored claim. */
interface SeenClaim {
  /** `pending`: taken for a send; `failed`: its last send failed; `done`: never to be sent again. */
  state: 'pending' | 'failed' | 'done';
  /** Attempts taken so far, the current one counted. */
  attempts: number;
  /** When the current attempt was taken. */
  takenMs: number;
}

/** How one kind of claim is stored: its owner module's writes and read. */
export interface ClaimStore {
  /** The put of the first attempt's claim, conditional on no claim existing. */
  first: WriteOp;
  /** The stored claim, read consistently (undefined: gone). */
  read(): Promise<SeenClaim | undefined>;
  /** Takes attempt `attempt` while `held` holds; a ConditionFailedError when another job took it. */
  retake(attempt: number, held: Condition): Promise<unknown>;
}

/** Takes a send for attempt 1, or the next attempt of a failed or abandoned one (attempts at most `maxAttempts`). */
export async function takeClaim(
  table: Table,
  store: ClaimStore,
  nowMs: number,
  maxAttempts: number,
): Promise<ClaimTake> {
  if (await putIfNew(table, store.first)) return { taken: true, attempt: 1 };
  const seen = await store.read();
  if (!seen || seen.state === 'done') return { taken: false };
  const abandoned = seen.state === 'pending' && nowMs - seen.takenMs >= ABANDONED_CLAIM_MS;
  if (seen.state === 'pending' && !abandoned)
    return { taken: false, retryInSeconds: Math.ceil((seen.takenMs + ABANDONED_CLAIM_MS - nowMs) / 1000) };
  if (seen.attempts >= maxAttempts) return abandoned ? { taken: false, abandoned: true } : { taken: false };
  const attempt = seen.attempts + 1;
  try {
    await store.retake(attempt, attemptHeld(seen.attempts));
    return { taken: true, attempt };
  } catch (error) {
    if (error instanceof ConditionFailedError) return { taken: false };
    throw error;
  }
}

/** The stored `attempts` is still `attempts` (an item of before retries has none stored: its 1). */
function attemptHeld(attempts: number): Condition {
  const held: Condition = { kind: 'compare', attr: 'attempts', op: '=', value: attempts };
  return attempts === 1
    ? { kind: 'or', conditions: [held, { kind: 'attrNotExists', attr: 'attempts' }] }
    : held;
}

async function putIfNew(table: Table, op: WriteOp): Promise<boolean> {
  try {
    await table.transact([op]);
    return true;
  } catch (error) {
    if (error instanceof ConditionFailedError) return false;
    throw error;
  }
}

import type { LocationOutcome } from '../../domain/states.ts';
import type { WriteOp } from '../../store/table.ts';
import type { CheckRun } from '../definitions/check-store.ts';
import type { ResultRecord, TransitionRecord } from '../records.ts';

/** What the result recorder (result-recorder.ts) takes and answers. */

export interface ResultInput {
  tenantId: string;
  checkId: string;
  success: boolean;
  /** A degraded success (error_message says why). */
  degraded?: boolean;
  status_code: number;
  latency_ms: number;
  error_message: string;
  checkedAtMs: number;
  /** A scheduled slot (pull) or synthetic deadline (push): makes the write idempotent per slot. */
  slotMs?: number;
  synthetic?: boolean;
  details?: Record<string, unknown>;
  /** The push dead man's switch: the next deadline after a synthetic failure (null: none). */
  nextRunAtMs?: number | null;
  /** The synthetic failure of a run that did not finish: it ends the run (clears run_started_at). */
  endsRun?: boolean;
  /**
   * A job's report (push) that knows the runs still open after it: the start of the newest one,
   * which the state keeps as its started run (null: none). Absent: the report ends the state's run.
   */
  openRunAt?: string | null;
  /** Extra ops committed with the result (e.g. deleting the local queue's job; a ping's log item). */
  alsoCommit?: WriteOp | WriteOp[];
  /**
   * A condition the result holds on (an outside check's tally, as read): when it fails nothing is
   * recorded and the answer is `stale`, so the caller reads again instead of landing an old reading.
   */
  holdsOn?: WriteOp;
  /** The check as the caller just read it: the first attempt uses it instead of reading it again. */
  run?: CheckRun;
  /** A located check's slot (lib/domain/states/quorum.ts): each location's part, kept on the result and the state. */
  locations?: LocationOutcome[];
  /** A located slot too few locations reported to decide: only the result is stored, no state moves. */
  inconclusive?: boolean;
  /** Probed on request (POST /v1/checks/{id}/run): the result says `manual: true`. */
  manual?: boolean;
  /** A plain success from a ping URL, not in the ping log: the result keeps `pinged: true`. */
  pinged?: boolean;
}

export type RecordOutcome =
  | { status: 'recorded'; result: ResultRecord; run: CheckRun; transitions: TransitionRecord[] }
  | { status: 'duplicate' }
  | { status: 'gone' }
  | { status: 'stale' };

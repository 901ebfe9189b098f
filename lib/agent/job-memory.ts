import type { ResultEntry } from './protocol.ts';

/** What the agent knows of a job it leased: being probed, its result waiting to be sent, or acknowledged. */
export type JobState = 'probing' | 'unsent' | 'acked';

export interface JobMemoryOptions {
  /** The most acknowledged jobs remembered (with their results). */
  maxAcked: number;
  /** How long an acknowledged job is remembered: longer than the server may lease it again. */
  ackedTtlMs: number;
}

/** The key of a job: its id and its slot. */
export const jobKey = (jobId: string, slot: number) => `${slot}\u0000${jobId}`;

/**
 * The jobs this agent has taken, so a job leased again (a lost answer, a lease that ran out while
 * the result was on its way) is never probed twice. Jobs being probed or waiting to be sent are
 * bounded by the concurrency and the outbox; acknowledged ones are kept with their result for
 * `ackedTtlMs`, at most `maxAcked` of them (oldest forgotten first), so a redelivery is answered
 * with the result already taken.
 */
export function createJobMemory(options: JobMemoryOptions) {
  const active = new Map<string, Exclude<JobState, 'acked'>>();
  const acked = new Map<string, { entry: ResultEntry; atMs: number }>();

  const forget = (nowMs: number) => {
    for (const [key, { atMs }] of acked) {
      if (acked.size <= options.maxAcked && nowMs - atMs <= options.ackedTtlMs) break;
      acked.delete(key);
    }
  };

  return {
    state(jobId: string, slot: number, nowMs: number): JobState | undefined {
      forget(nowMs);
      const key = jobKey(jobId, slot);
      return active.get(key) ?? (acked.has(key) ? 'acked' : undefined);
    },
    /** The result sent for an acknowledged job. */
    ackedResult(jobId: string, slot: number): ResultEntry | undefined {
      return acked.get(jobKey(jobId, slot))?.entry;
    },
    probing(jobId: string, slot: number): void {
      active.set(jobKey(jobId, slot), 'probing');
    },
    unsent(entry: ResultEntry): void {
      active.set(jobKey(entry.job_id, entry.slot), 'unsent');
    },
    acknowledged(entry: ResultEntry, nowMs: number): void {
      const key = jobKey(entry.job_id, entry.slot);
      active.delete(key);
      acked.delete(key);
      acked.set(key, { entry, atMs: nowMs });
      forget(nowMs);
    },
    /** A result the server refused for good: forgotten, as if never leased. */
    dropped(entry: ResultEntry): void {
      active.delete(jobKey(entry.job_id, entry.slot));
    },
    /**
     * Forgets the jobs being probed or waiting to be sent, keeping the acknowledged ones: at the end
     * of a bounded run (lib/agent/bounded-run.ts), whose unsent results are gone with it, so a job
     * leased again by a later run is probed again instead of waiting for a result that never comes.
     */
    forgetUnacknowledged(): void {
      active.clear();
    },
    get ackedCount() {
      return acked.size;
    },
  };
}

export type JobMemory = ReturnType<typeof createJobMemory>;

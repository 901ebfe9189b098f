import type { Clock } from '../platform/clock.ts';
import type { Logger } from '../platform/logger.ts';
import { type AgentClient, AgentRequestError } from './agent-client.ts';
import type { AgentMetrics } from './agent-metrics.ts';
import { type JobMemory, jobKey } from './job-memory.ts';
import { MAX_RESULTS_PER_POST, type ResultEntry } from './protocol.ts';
import { type Backoff, createNudge, pause } from './waits.ts';

export interface ResultSenderDeps {
  client: Pick<AgentClient, 'postResults'>;
  memory: JobMemory;
  metrics: AgentMetrics;
  logger: Logger;
  backoff: Backoff;
  clock: Clock;
  /** Called when results leave the outbox (room for more leases). */
  onRoom(): void;
}

/** Answers that say the batch itself is malformed: sending it again cannot help. */
const REFUSED_STATUSES = new Set([400, 413, 422]);

/**
 * The outbox of results not yet acknowledged, and the loop that posts them in batches (oldest
 * first, up to MAX_RESULTS_PER_POST), again and again with backoff until Vigil answers for each.
 * A result leaves the outbox only when acknowledged, or when Vigil refuses it alone as malformed
 * (a batch refused as malformed is sent again one result at a time, to find the one). The outbox
 * is bounded by the agent, which leases only while it has room (lib/agent/agent.ts).
 */
export function createResultSender(deps: ResultSenderDeps) {
  const outbox = new Map<string, { entry: ResultEntry; queuedMs: number }>();
  const work = createNudge();
  let finishing = false;
  /** Results still to send one per post, after a batch was refused as malformed. */
  let singly = 0;
  let failures = 0;

  const acknowledge = (key: string, status: string) => {
    const held = outbox.get(key);
    if (!held) return;
    outbox.delete(key);
    const nowMs = deps.clock.now();
    if (status === 'rejected') deps.memory.dropped(held.entry);
    else deps.memory.acknowledged(held.entry, nowMs);
    deps.metrics.acknowledged(status, (nowMs - held.queuedMs) / 1000);
  };

  const sendOnce = async (signal: AbortSignal): Promise<void> => {
    const batch = [...outbox.values()].slice(0, singly > 0 ? 1 : MAX_RESULTS_PER_POST).map((h) => h.entry);
    try {
      const answer = await deps.client.postResults(batch, signal);
      failures = 0;
      singly = Math.max(0, singly - batch.length);
      deps.metrics.succeeded('results');
      for (const { job_id, slot, status } of answer.results) acknowledge(jobKey(job_id, slot), status);
      const left = batch.filter((e) => outbox.has(jobKey(e.job_id, e.slot))).length;
      if (left > 0) {
        // Left out of the answer: not taken this time, sent again after a pause.
        deps.metrics.retried(left);
        await pause(deps.backoff.delayMs(1), signal);
      }
    } catch (err) {
      if (signal.aborted) return;
      const failure =
        err instanceof AgentRequestError ? err : new AgentRequestError(String(err), 'protocol', undefined);
      deps.metrics.failed('results', failure.kind);
      if (failure.status !== undefined && REFUSED_STATUSES.has(failure.status)) {
        const [only] = batch;
        if (batch.length === 1 && only) {
          deps.logger.error('Vigil refused a result as malformed: it is dropped', {
            job_id: only.job_id,
            slot: only.slot,
            reason: failure.message,
          });
          acknowledge(jobKey(only.job_id, only.slot), 'rejected');
        } else singly = batch.length;
        return;
      }
      failures += 1;
      deps.metrics.retried(batch.length);
      const waitMs = deps.backoff.delayMs(failures, failure.retryAfterMs);
      deps.logger.warn('results not delivered; sending again', {
        results: batch.length,
        unsent: outbox.size,
        reason: failure.message,
        retry_in_ms: waitMs,
      });
      await pause(waitMs, signal);
    }
  };

  return {
    get size() {
      return outbox.size;
    },
    /** Queues a result (a probe's, or an acknowledged one sent again for a redelivered job). */
    add(entry: ResultEntry): void {
      const key = jobKey(entry.job_id, entry.slot);
      if (!outbox.has(key)) outbox.set(key, { entry, queuedMs: deps.clock.now() });
      if (deps.memory.state(entry.job_id, entry.slot, deps.clock.now()) !== 'acked')
        deps.memory.unsent(entry);
      work.nudge();
    },
    /** From now on `run` returns once the outbox is empty. */
    finish(): void {
      finishing = true;
      work.nudge();
    },
    /** Posts until `signal` aborts, or until the outbox is empty after `finish()`. */
    async run(signal: AbortSignal): Promise<void> {
      while (!signal.aborted) {
        if (outbox.size === 0) {
          if (finishing) return;
          await work.wait(signal);
          continue;
        }
        const before = outbox.size;
        await sendOnce(signal);
        if (outbox.size < before) deps.onRoom();
      }
    },
  };
}

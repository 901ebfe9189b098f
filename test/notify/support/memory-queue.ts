import type {
  EnqueueResult,
  FailOutcome,
  JobInput,
  JobQueue,
  ReceivedJob,
} from '../../../lib/platform/job-queue.ts';

/** A job queue in memory, for compositions a test builds without running notifications: it keeps what is enqueued. */
export function memoryJobQueue<B>(name = 'notify'): JobQueue<B> & { enqueued: JobInput<B>[] } {
  const enqueued: JobInput<B>[] = [];
  return {
    name,
    enqueued,
    async enqueue(jobs: JobInput<B>[]): Promise<EnqueueResult> {
      enqueued.push(...jobs);
      return { failed: [] };
    },
    async receive(): Promise<ReceivedJob<B>[]> {
      return enqueued.splice(0).map((job) => ({ id: job.id, body: job.body, attempt: 1, receipt: job.id }));
    },
    async ack(): Promise<void> {},
    async fail(): Promise<FailOutcome> {
      return { status: 'dead' };
    },
  };
}

import type { SQSClient } from '@aws-sdk/client-sqs';
import * as z from 'zod';
import { runBrowserLeg } from '../agent/browser-leg.ts';
import { probeResultSchema, toWireResult, unprobedResult } from '../agent/probe-result.ts';
import { type ProbedResult, type ProbeJob, probeJobId, probeJobSchema } from '../checks/probe-job.ts';
import {
  type ArtifactStore,
  artifactNamesSchema,
  artifactRef,
  slotScope,
  storeArtifacts,
} from '../checks/probing.ts';
import type { Clock } from '../platform/clock.ts';
import type { ReceivedJob } from '../platform/job-queue.ts';
import type { Logger } from '../platform/logger.ts';
import type { BrowserRunner } from '../probes/browser-runner.ts';
import type { ProbeDefinition, ProbeOutcome } from '../probes/types.ts';
import type { BatchMetrics, SqsBatchHandlerDeps } from './queues/sqs-batch.ts';
import { createSqsJobQueue, type SqsJobQueue } from './queues/sqs-job-queue.ts';

/**
 * The browser leg of the probe path in the cloud (DECISIONS.md "Scripted checks (wave 5)"): the
 * worker sends a browser check's slot to the browser queue with the check's probe (the config a
 * located agent leases, secrets included: the queue is encrypted and only the worker sends to it);
 * the browser function runs it and hands the outcome back on the probe queue as a `probed` job,
 * carrying the result an agent posts (lib/agent/protocol.ts), which the worker records. A run's
 * screenshots and trace go to the artifacts bucket first, under the slot's result id; the job names them
 * (never their bytes: a message holds 256 KB) and the worker's result lists them.
 */

/** A browser queue message: the slot's probe job and the check to run (parsed there: browserCheckSchema). */
const browserJobSchema = z.strictObject({
  job: probeJobSchema,
  check: z.unknown(),
  /** The tenant's retention (days), which the stored artifacts are tagged with for their expiry; absent in older messages. */
  retention_days: z.number().int().min(1).optional(),
});

export type BrowserJob = z.infer<typeof browserJobSchema>;

/** What the browser function sends back to the probe queue: the job, its result and its stored artifacts' names. */
export const probedJobSchema = z.strictObject({
  kind: z.literal('probed'),
  job: probeJobSchema,
  result: probeResultSchema,
  artifacts: artifactNamesSchema.optional(),
  /** Why the run's trace is not kept (larger than the bound). */
  trace_left_out: z.string().optional(),
});
export type ProbedJob = z.infer<typeof probedJobSchema>;

/** What the worker records of a probed job: its result, the details listing its stored artifacts as a local run's do. */
export function probedResult({ job, result, artifacts, trace_left_out }: ProbedJob): ProbedResult {
  const scope = slotScope(job);
  const details = {
    ...result.details,
    ...(artifacts?.length ? { artifacts: artifacts.map((name) => artifactRef(scope, name)) } : {}),
    ...(trace_left_out ? { trace_left_out } : {}),
  };
  return {
    ...result,
    checkedAtMs: Date.parse(result.checked_at),
    ...(artifacts?.length || trace_left_out ? { details } : {}),
  };
}

/** A browser job's queue id: its probe job's (a redelivered slot is the same job). */
const browserJobId = (job: ProbeJob) => `browser:${probeJobId(job)}`;

/** A probed job's queue id: one per slot, so the worker sees a second delivery as the same job. */
const probedJobId = (job: ProbeJob) => `probed:${probeJobId(job)}`;

/** The browser job queue on SQS. */
export function createBrowserJobQueue(deps: {
  sqs: SQSClient;
  queueUrl: string;
  logger: Logger;
}): SqsJobQueue<BrowserJob> {
  return createSqsJobQueue({ ...deps, name: 'browser', schema: browserJobSchema });
}

/**
 * Sends a browser check's slot to the browser queue with its tenant's retention (its artifacts'
 * expiry); throws when SQS did not take it: the probe job is retried.
 */
export async function sendBrowserJob(
  queue: Pick<SqsJobQueue<BrowserJob>, 'enqueue'>,
  job: ProbeJob,
  check: ProbeDefinition,
  retentionDays?: number,
): Promise<void> {
  const body = { job, check, ...(retentionDays === undefined ? {} : { retention_days: retentionDays }) };
  const { failed } = await queue.enqueue([{ id: browserJobId(job), body }]);
  if (failed.length > 0) throw new Error(`the browser queue did not take ${browserJobId(job)}`);
}

/**
 * The browser function's memory (MB): Chromium, its renderer and the runner's child together; a
 * Lambda's CPU grows with it, and a page's load time with the CPU. infra/ sizes the function with
 * it and the cost meter prices its runs with it.
 */
export const BROWSER_FUNCTION_MEMORY_MB = 2048;

/**
 * What the browser function holds: its two queues, the runner and the artifacts bucket. No table,
 * no config beyond these: a browser run sees the check it runs and nothing else (infra/browser.ts
 * gives its role no table access, and only s3:PutObject on the bucket).
 */
export interface BrowserHandlerDeps {
  /** The browser queue it consumes (retry delays are set there). */
  queue: SqsJobQueue<BrowserJob>;
  /** The probe queue the result goes back to (send only). */
  results: () => Pick<SqsJobQueue<ProbedJob>, 'enqueue'>;
  runner: BrowserRunner;
  /** Where a run's screenshots and trace are stored (the artifacts bucket); absent: none are kept. */
  artifacts?: ArtifactStore | undefined;
  /** Whether the SSRF guard lets a page reach private addresses (the cloud: no). */
  allowPrivate: boolean;
  clock: Clock;
  logger: Logger;
  metrics?: BatchMetrics<BrowserJob>;
}

/**
 * Runs one browser job: the check parsed (a browser check's probe, or a failed result saying why not), run in the
 * runner's child (every request through the SSRF guard, secrets hidden in the outcome), and its
 * result sent to the probe queue as a `probed` job for the worker to record. Its screenshots and trace are
 * stored first, under the slot's result id (first write stands: a redelivered job's second run
 * leaves them as they were), and the job names those stored. A send SQS refuses throws (the job is retried).
 */
function createBrowserJobHandler(deps: BrowserHandlerDeps) {
  return async ({ body }: ReceivedJob<BrowserJob>): Promise<ProbedJob> => {
    const answer = await runBrowserLeg(body.check, deps);
    const result =
      'problem' in answer ? unprobedResult(answer.problem, deps.clock.now()) : toWireResult(answer);
    const stored =
      'problem' in answer ? [] : await storeEvidence(deps, body.job, answer.outcome, body.retention_days);
    const probed: ProbedJob = {
      kind: 'probed',
      job: body.job,
      result,
      ...(stored.length > 0 ? { artifacts: stored } : {}),
      ...('outcome' in answer && answer.outcome.trace_left_out
        ? { trace_left_out: answer.outcome.trace_left_out }
        : {}),
    };
    const { failed } = await deps.results().enqueue([{ id: probedJobId(body.job), body: probed }]);
    if (failed.length > 0) throw new Error(`the probe queue did not take ${probedJobId(body.job)}`);
    deps.logger.debug('browser job run', {
      check_id: body.job.check_id,
      slot_ms: body.job.slot_ms,
      success: result.success,
    });
    return probed;
  };
}

/** Stores a run's screenshots and trace for its slot's result; answers the names stored (none without a bucket). */
async function storeEvidence(
  deps: Pick<BrowserHandlerDeps, 'artifacts' | 'logger'>,
  job: ProbeJob,
  outcome: ProbeOutcome,
  retentionDays: number | undefined,
): Promise<string[]> {
  if (!deps.artifacts || (!outcome.screenshots?.length && !outcome.trace)) return [];
  const refs = await storeArtifacts(
    { artifacts: deps.artifacts, logger: deps.logger },
    slotScope(job),
    outcome,
    retentionDays,
  );
  return refs.map((ref) => ref.name);
}

/** The browser function's SQS batch handler's deps (batch size 1: one Chromium at a time per instance). */
export function browserBatchDeps(deps: BrowserHandlerDeps): SqsBatchHandlerDeps<BrowserJob> {
  const run = createBrowserJobHandler(deps);
  return {
    queue: deps.queue,
    handle: async (job) => {
      await run(job);
    },
    logger: deps.logger,
    ...(deps.metrics ? { metrics: deps.metrics } : {}),
  };
}

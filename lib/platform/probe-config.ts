import * as z from 'zod';

/**
 * The settings of the probing engine (the due index's shards, the workers, the probe threads and
 * the first probe of a new check), parsed with the rest of the environment by config.ts (the only
 * reader of process.env), kept here so that file stays small.
 */
export const probeEnv = {
  VIGIL_FIRST_PROBE: z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .default('true')
    .transform((v) => v === 'true' || v === '1' || v === 'yes'),
  VIGIL_DUE_SHARDS: z.coerce.number().int().min(1).max(256).default(4),
  VIGIL_WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(10000).default(256),
  VIGIL_PROBE_THREADS: z.coerce.number().int().min(0).max(64).default(1),
  VIGIL_BROWSER_RUNS: z.coerce.number().int().min(1).max(32).default(2),
  VIGIL_CHROMIUM_PATH: z.string().min(1).default('/usr/bin/chromium'),
  VIGIL_ARTIFACT_BUCKET: z.string().min(3).optional(),
  VIGIL_BROWSER_QUEUE_URL: z.string().optional(),
};

export interface ProbeSettings {
  /** Probe a new, enabled or re-targeted pull check at once, besides its cell's slots (default true). */
  firstProbe: boolean;
  dueShards: number;
  workerConcurrency: number;
  /** Local runtime: threads the probes run on (0: on the event loop). */
  probeThreads: number;
  /** Local runtime: browser checks run at once (each a child process with its own Chromium). */
  browserRuns: number;
  /** Local runtime: the Chromium browser checks start (Debian's by default). */
  chromiumPath: string;
  /** Cloud: the S3 bucket browser checks' screenshots are kept in (infra/artifacts.ts); locally the data dir's artifacts/. */
  artifactBucket?: string | undefined;
  /** Cloud: the browser function's job queue (the worker sends browser checks' slots there). */
  browserQueueUrl: string | undefined;
}

export function probeSettings(e: {
  VIGIL_FIRST_PROBE: boolean;
  VIGIL_DUE_SHARDS: number;
  VIGIL_WORKER_CONCURRENCY: number;
  VIGIL_PROBE_THREADS: number;
  VIGIL_BROWSER_RUNS: number;
  VIGIL_CHROMIUM_PATH: string;
  VIGIL_ARTIFACT_BUCKET?: string | undefined;
  VIGIL_BROWSER_QUEUE_URL?: string | undefined;
}): ProbeSettings {
  return {
    firstProbe: e.VIGIL_FIRST_PROBE,
    dueShards: e.VIGIL_DUE_SHARDS,
    workerConcurrency: e.VIGIL_WORKER_CONCURRENCY,
    probeThreads: e.VIGIL_PROBE_THREADS,
    browserRuns: e.VIGIL_BROWSER_RUNS,
    chromiumPath: e.VIGIL_CHROMIUM_PATH,
    artifactBucket: e.VIGIL_ARTIFACT_BUCKET,
    browserQueueUrl: e.VIGIL_BROWSER_QUEUE_URL,
  };
}

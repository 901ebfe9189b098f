import type { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { Metrics } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import type { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import middy from '@middy/core';
import type { Context, SQSBatchResponse } from 'aws-lambda';
import { artifactBucketStore } from '../lib/checks/probing.ts';
import {
  browserBatchDeps,
  createBrowserJobQueue,
  type ProbedJob,
  probedJobSchema,
} from '../lib/cloud/browser-function.ts';
import {
  createFunctionMetrics,
  createPowertoolsLogger,
  createSqsJobQueue,
  fromPowertools,
  lazySqsBatchHandler,
  type SqsJobQueue,
} from '../lib/cloud/lambda.ts';
import { type Clock, systemClock } from '../lib/platform/clock.ts';
import { type Config, loadConfig } from '../lib/platform/config.ts';
import type { BrowserRunner } from '../lib/probes/browser-runner.ts';
import { lambdaBrowserRunner } from '../lib/probes/lambda-chromium.ts';

/** SQS browser jobs -> one Chromium run each -> its result on the probe queue (no table access). */
export function createBrowserLambda(deps: {
  browserHandler(): (event: unknown, context: Context) => Promise<SQSBatchResponse>;
  powertools: PowertoolsLogger;
  metrics?: Metrics;
}) {
  const lambda = middy(deps.browserHandler()).use(injectLambdaContext(deps.powertools, { resetKeys: true }));
  return deps.metrics ? lambda.use(logMetrics(deps.metrics)) : lambda;
}

/** What tests replace: the SQS and S3 clients (fauxqs), the clock, where logs go. */
export interface BrowserFunctionOverrides {
  sqs?: SQSClient;
  s3?: S3Client;
  clock?: Clock;
  logWrite?: (line: string) => void;
}

/**
 * The browser function: its queue, the probe queue it sends results to, a browser runner and the
 * artifacts bucket its screenshots go to (VIGIL_ARTIFACT_BUCKET). Deliberately not a CloudBase (lib/cloud/cloud-base.ts): it builds no DynamoDB client and no table,
 * and its role has no table access either (infra/browser.ts).
 */
export function composeBrowserFunction(
  config: Pick<
    Config,
    'logLevel' | 'region' | 'allowPrivateTargets' | 'probeQueueUrl' | 'browserQueueUrl' | 'artifactBucket'
  >,
  runner: BrowserRunner,
  overrides: BrowserFunctionOverrides = {},
) {
  const powertools = createPowertoolsLogger({
    level: config.logLevel,
    ...(overrides.logWrite ? { write: overrides.logWrite } : {}),
  });
  const logger = fromPowertools(powertools);
  const sqs = overrides.sqs ?? new SQSClient({ region: config.region });
  const clock = overrides.clock ?? systemClock;
  const artifacts = artifactBucketStore(config, { s3: overrides.s3 });
  const metrics = createFunctionMetrics('browser');
  let results: SqsJobQueue<ProbedJob> | undefined;
  return {
    powertools,
    metrics: metrics.powertools,
    /**
     * The SQS batch handler, built at its first invocation (importing functions/browser.ts needs no
     * queue URL); needs VIGIL_BROWSER_QUEUE_URL and VIGIL_PROBE_QUEUE_URL.
     */
    browserHandler: () =>
      lazySqsBatchHandler(() => {
        const queueUrl = config.browserQueueUrl;
        if (!queueUrl)
          throw new Error('VIGIL_BROWSER_QUEUE_URL is not set (the browser function consumes it)');
        return browserBatchDeps({
          queue: createBrowserJobQueue({ sqs, queueUrl, logger }),
          results: () => {
            const probeUrl = config.probeQueueUrl;
            if (!probeUrl) throw new Error('VIGIL_PROBE_QUEUE_URL is not set (results go back there)');
            results ??= createSqsJobQueue({
              sqs,
              queueUrl: probeUrl,
              logger,
              name: 'probe',
              schema: probedJobSchema,
            });
            return results;
          },
          runner,
          artifacts,
          allowPrivate: config.allowPrivateTargets,
          clock,
          logger,
          metrics: {
            metrics: metrics.metrics,
            names: () => ({ ok: 'BrowserJobsRun', failed: 'BrowserJobsFailed' }),
            now: () => clock.now(),
          },
        });
      }),
  };
}

// Its own composition (above): queues and a runner, no table (as functions/probe-region.ts composes its own).
export const handler = createBrowserLambda(
  composeBrowserFunction(loadConfig('cloud'), lambdaBrowserRunner()),
);

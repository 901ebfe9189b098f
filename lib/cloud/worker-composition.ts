import { createTenantCache } from '../auth/tenants.ts';
import { createCellRunner } from '../checks/probing.ts';
import { composeProbing } from '../locations/compose-probing.ts';
import { createBrowserJobQueue } from './browser-function.ts';
import type { CloudBase } from './cloud-base.ts';
import { queueFunctionMetrics } from './edge/metrics.ts';
import { createWorkerHandler } from './workers/worker.ts';

/** The probe worker function: probing and the cell runner over the probe queue; no routes. */
export function composeWorkerFunction(base: CloudBase) {
  const { table, clock, logger, config } = base;
  const probing = composeProbing({ table, clock, logger, config });
  // No artifacts store: a browser check's slot runs in the browser function, which stores its screenshots.
  const { jobRunner } = probing;
  // Read again at most every TENANT_CACHE_MS: a browser job carries its tenant's retention.
  const tenants = createTenantCache({ tenants: probing.tenants, clock });
  // A cell job probes every member of its cell; a probe job one check.
  const metrics = queueFunctionMetrics(base, 'worker', () => ({
    ok: 'ProbeJobsRun',
    failed: 'ProbeJobsFailed',
  }));
  let browserQueue: ReturnType<typeof createBrowserJobQueue> | undefined;
  return {
    ...metrics.edge,
    jobRunner,
    /** The probe worker Lambda's SQS batch handler; needs VIGIL_PROBE_QUEUE_URL (and VIGIL_BROWSER_QUEUE_URL for browser checks). */
    workerHandler: () =>
      createWorkerHandler({
        queue: base.probeQueue('the worker sets retry delays there'),
        browserQueue: () => {
          const queueUrl = config.browserQueueUrl;
          if (!queueUrl) throw new Error('VIGIL_BROWSER_QUEUE_URL is not set (browser checks run there)');
          browserQueue ??= createBrowserJobQueue({ sqs: base.sqs, queueUrl, logger });
          return browserQueue;
        },
        retentionDays: async (tenantId) => (await tenants.requireTenant(tenantId)).retention_days,
        jobRunner,
        cells: createCellRunner({
          table,
          prober: jobRunner.prober,
          tenants: probing.tenants,
          clock,
          logger,
        }),
        clock,
        logger,
        metrics: metrics.batch,
      }),
  };
}

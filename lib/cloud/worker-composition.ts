import { createCellRunner } from '../checks/cell-runner.ts';
import { composeProbing } from '../compose-probing.ts';
import type { CloudBase } from './cloud-base.ts';
import { createWorkerHandler } from './worker.ts';

/** The probe worker function: probing and the cell runner over the probe queue; no routes. */
export function composeWorkerFunction(base: CloudBase) {
  const { table, clock, logger, config } = base;
  const probing = composeProbing({ table, clock, logger, config });
  return {
    powertools: base.powertools,
    jobRunner: probing.jobRunner,
    /** The probe worker Lambda's SQS batch handler; needs VIGIL_PROBE_QUEUE_URL. */
    workerHandler: () =>
      createWorkerHandler({
        queue: base.probeQueue('the worker sets retry delays there'),
        jobRunner: probing.jobRunner,
        cells: createCellRunner({ table, prober: probing.jobRunner.prober, tenants: probing.tenants, clock }),
        logger,
      }),
  };
}

import { createProbeRegionLambda } from '../../functions/probe-region.ts';
import type { BrowserInvoke } from '../../lib/agent/region-browser.ts';
import { createRegionHandler, type RegionRunAnswer } from '../../lib/agent/region-function.ts';
import { createPowertoolsLogger, fromPowertools } from '../../lib/cloud/edge/lambda-edge.ts';
import { systemClock } from '../../lib/platform/clock.ts';
import { lambdaContext } from '../support/lambda-context.ts';

/** The slot the region browser tests lease their jobs for. */
export const SLOT = Date.parse('2026-11-24T12:00:00.000Z');

/**
 * A region's probe function (functions/probe-region.ts) against the home at `url` with `key`, its
 * browser legs handed to `browser`, its run shortened to 2 s; `invoke()` is one scheduled run.
 */
export function regionProbeLambda(url: string, key: string, browser: BrowserInvoke) {
  const powertools = createPowertoolsLogger({ level: 'warn', write: () => {} });
  const handler = createProbeRegionLambda({
    regionHandler: createRegionHandler({
      config: {
        agentUrl: url,
        locationKeySecret: 'VigilProbeLocationKey',
        allowPrivateTargets: true,
        region: 'eu-west-1',
      },
      readSecret: async () => key,
      browser,
      clock: systemClock,
      logger: fromPowertools(powertools),
      run: { leaseForMs: 2000, stopMarginMs: 1000 },
    }),
    powertools,
  });
  return async () => (await handler({}, lambdaContext('vigil-probe-region'))) as RegionRunAnswer;
}

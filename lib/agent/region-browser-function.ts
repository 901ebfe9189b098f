import type { Logger } from '../platform/logger.ts';
import { newestScreenshots } from '../probes/outcome.ts';
import { type BrowserLegDeps, runBrowserLeg } from './browser-leg.ts';
import { toWireResult, unprobedResult } from './probe-result.ts';
import { type RegionBrowserAnswer, regionBrowserRequestSchema } from './region-browser.ts';

/**
 * A region's browser function (functions/region-browser.ts): invoked synchronously by the region's
 * probe function for a browser leg (lib/agent/region-browser.ts), it runs the check in the runner's
 * child as the home's browser function does (lib/agent/browser-leg.ts) and answers the result an
 * agent posts: steps, vitals and error. Its screenshots are not kept (a location's leg keeps none,
 * as an agent's): no bucket, no table, no queue, no secret. The home stack deploys it too, as the
 * draft browser function: the API function's draft runs ask for their screenshots inline. A
 * payload it cannot read, or a check that is no browser check, is answered as a failed result
 * saying why; it never throws for one.
 */
export function createRegionBrowserHandler(deps: BrowserLegDeps & { logger: Logger }) {
  return async (event: unknown): Promise<RegionBrowserAnswer> => {
    const request = regionBrowserRequestSchema.safeParse(event);
    if (!request.success) {
      const issue = request.error.issues[0];
      const problem = `the region's browser function cannot read its payload at ${issue?.path.join('.') || 'its root'}: ${issue?.message}`;
      deps.logger.error('unreadable payload', { problem });
      return { result: unprobedResult(problem, deps.clock.now()) };
    }
    const answer = await runBrowserLeg(request.data.check, deps);
    if ('problem' in answer) return { result: unprobedResult(answer.problem, deps.clock.now()) };
    const result = toWireResult(answer);
    deps.logger.debug('browser leg run', { success: result.success });
    const shots = answer.outcome.screenshots ?? [];
    if (!request.data.screenshots || shots.length === 0) return { result };
    const { kept, leftOut } = newestScreenshots(shots);
    return { result, screenshots: kept, ...(leftOut > 0 ? { screenshots_left_out: leftOut } : {}) };
  };
}

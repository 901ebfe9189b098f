import type { Logger } from '../platform/logger.ts';
import { type BrowserLegDeps, runBrowserLeg } from './browser-leg.ts';
import { toWireResult, unprobedResult } from './probe-result.ts';
import { type RegionBrowserAnswer, regionBrowserRequestSchema } from './region-browser.ts';

/**
 * A region's browser function (functions/region-browser.ts): invoked synchronously by the region's
 * probe function for a browser leg (lib/agent/region-browser.ts), it runs the check in the runner's
 * child as the home's browser function does (lib/agent/browser-leg.ts) and answers the result an
 * agent posts: steps, vitals and error. Its screenshots are not kept (a location's leg keeps none,
 * as an agent's): no bucket, no table, no queue, no secret. A payload it cannot read, or a check
 * that is no browser check, is answered as a failed result saying why; it never throws for one.
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
    const result =
      'problem' in answer ? unprobedResult(answer.problem, deps.clock.now()) : toWireResult(answer);
    deps.logger.debug('browser leg run', { success: result.success });
    return { result };
  };
}

import { composeRegionBrowserFunction, createRegionBrowserLambda } from '../../functions/region-browser.ts';
import type { BrowserInvoke } from '../../lib/agent/region-browser.ts';
import { createBrowserRunner } from '../../lib/probes/browser-runner.ts';
import { lambdaContext } from './lambda-context.ts';

/**
 * A synchronous browser function (functions/region-browser.ts: a region's, and the home's draft
 * browser function), invoked as Lambda would: each payload goes as JSON through the handler as
 * deployed, Debian's Chromium standing in for @sparticuz's, and its answer comes back as JSON.
 * Each payload it was sent is kept.
 */
export function inProcessBrowserFunction(name = 'vigil-region-browser') {
  const payloads: unknown[] = [];
  const lambda = createRegionBrowserLambda(
    composeRegionBrowserFunction(
      { logLevel: 'warn', allowPrivateTargets: true },
      createBrowserRunner({ concurrency: 1 }),
      () => {},
    ),
  );
  const invoke: BrowserInvoke = async (payload) => {
    payloads.push(JSON.parse(payload));
    const answer = await lambda(JSON.parse(payload), lambdaContext(name));
    return { payload: JSON.stringify(answer) };
  };
  return { invoke, payloads };
}

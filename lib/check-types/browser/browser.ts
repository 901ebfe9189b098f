import type * as z from 'zod';
import { defineCheckType } from '../contract/definition.ts';
import { scriptLabel } from '../contract/fields.ts';
import { secretVariableHooks } from '../multistep/secret-variables.ts';
import { runBrowserJob } from './browser-probe.ts';
import { type BrowserConfig, browserInput, browserStored, browserView } from './browser-schema.ts';

/** "app.example.com (3 steps)": the first goto's host and the script's length. */
const label = (config: BrowserConfig) =>
  scriptLabel(config.steps.find((s) => s.action === 'goto')?.url, config.steps.length);

/**
 * browser: a script of steps (goto, click, fill, press, select, wait_for, assert, screenshot) a
 * headless Chromium runs in a sandboxed child process, every request through the SSRF guard
 * (./browser-probe.ts, lib/probes/browser-runner.ts); up when every step passes. At most once a
 * minute: a run starts a browser. Each slot runs alone (no cell); in the cloud in the browser
 * function, which has no table access and hands its result back on the probe queue.
 */
export const browserCheckType = defineCheckType<'browser', BrowserConfig>('browser', {
  label: 'Browser',
  input: browserInput,
  stored: browserStored as z.ZodType<BrowserConfig>,
  tls: false,
  // A run is a Chromium of its own for up to a minute: never a cell's member (locally a child
  // process of the runner's pool, in the cloud the browser function: lib/cloud/browser-function.ts).
  runsAlone: { probe: runBrowserJob },
  draftUnsupported: {
    cloud:
      'a browser check cannot be run as a draft in the cloud without the draft browser function (VIGIL_DRAFT_BROWSER_FUNCTION, which the stack sets): the API function has no browser; save the check (it runs within a minute) or run it with POST /v1/checks/{id}/run',
  },
  minIntervalSeconds: 60,
  view: browserView,
  ...secretVariableHooks,
  defaultName: (config) => `Browser ${label(config)}`,
  targetLabel: (config) => `browser ${label(config)}`,
});

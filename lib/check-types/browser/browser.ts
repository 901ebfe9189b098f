import type * as z from 'zod';
import { type ConfiguredProbeJob, defineCheckType } from '../contract/definition.ts';
import { secretVariableHooks } from '../multistep/secret-variables.ts';
import { type BrowserConfig, browserInput, browserStored, browserView } from './browser-schema.ts';

/** What a browser probe runs: the config with the common probe fields. */
export type BrowserProbeJob = ConfiguredProbeJob<'browser', BrowserConfig>;

/** "app.example.com": the first goto's host (its URL may hold references after the host). */
function firstHost(config: BrowserConfig): string {
  const first = config.steps.find((s) => s.action === 'goto')?.url ?? '';
  return /^https?:\/\/(?:[^@/?#]*@)?([^/?#:]+(?::\d+)?)/i.exec(first)?.[1]?.toLowerCase() ?? '';
}

const stepCount = (config: BrowserConfig) =>
  config.steps.length === 1 ? '1 step' : `${config.steps.length} steps`;

/**
 * browser: a script of steps (goto, click, fill, press, select, wait_for, assert, screenshot) a
 * headless Chromium runs in a sandboxed child process, every request through the SSRF guard
 * (./browser-probe.ts, lib/probes/browser-runner.ts); up when every step passes. At most once a
 * minute: a run starts a browser.
 */
export const browserCheckType = defineCheckType<'browser', BrowserConfig>('browser', {
  label: 'Browser',
  input: browserInput,
  stored: browserStored as z.ZodType<BrowserConfig>,
  tls: false,
  unsupported: {
    cloud:
      'browser checks run in the local runtime only for now: the cloud has no function that runs a browser yet',
  },
  minIntervalSeconds: 60,
  view: browserView,
  ...secretVariableHooks,
  defaultName: (config) => `Browser ${firstHost(config)} (${stepCount(config)})`,
  targetLabel: (config) => `browser ${firstHost(config)} (${stepCount(config)})`,
});

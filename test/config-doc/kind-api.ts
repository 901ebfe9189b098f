import { expect } from 'vitest';
import type { Api } from '../../lib/config-doc/kind.ts';
import type { ApiHarness } from '../support/api-harness.ts';

/**
 * The tenant's API over HTTP as the config kinds call it (the same contract as the in-process
 * invoker), with a key: the harness's admin key unless another is given.
 */
export const httpKindApi =
  (harness: () => ApiHarness, key: () => string = () => harness().adminKey): Api =>
  async (call) => {
    const query = call.query ? `?${new URLSearchParams(call.query)}` : '';
    const res = await harness().request(call.method, `${call.path}${query}`, { key: key(), body: call.body });
    return { status: res.status, body: res.body };
  };

/** An admin call that must succeed (a status under 300); its JSON body. */
export const adminCallOk =
  (harness: () => ApiHarness) => async (method: string, path: string, body?: unknown) => {
    const res = await harness().request(method, path, { key: harness().adminKey, body });
    expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
    return res.body;
  };

import { afterAll, beforeAll, expect } from 'vitest';
import type { ApiHarness, HarnessOptions } from '../../support/api-harness.ts';
import { createTlsFixtures } from '../../support/tls-fixtures.ts';
import { type Receiver, startReceiver } from '../channels/receiver.ts';

/**
 * An HTTPS receiver standing in for the file's channels, started before its tests and closed after
 * them: `receiver()` reads it, `ca()` is the certificate that signs its own (for a runtime's egress).
 */
export function tlsReceiverPerFile(secret = 'unused') {
  let started: { receiver: Receiver; ca: string } | undefined;
  const read = () => {
    if (!started) throw new Error('the receiver is read before its beforeAll started it');
    return started;
  };
  beforeAll(async () => {
    const tls = createTlsFixtures();
    started = { receiver: await startReceiver(tls.valid, secret), ca: tls.caCert };
  });
  afterAll(async () => {
    await started?.receiver.close();
  });
  return { receiver: () => read().receiver, ca: () => read().ca };
}

/**
 * The runtime of a notify describe block, started with `options()` before its tests and closed after
 * them: `api()` reads it, `call` sends a request (as the admin unless a key is given) and expects a
 * 2xx, `settle` runs the change feed and then the notify jobs it queued.
 */
export function useNotifyRuntime(
  start: (options: HarnessOptions) => Promise<ApiHarness>,
  options: () => HarnessOptions,
) {
  let harness: ApiHarness | undefined;
  const api = (): ApiHarness => {
    if (!harness) throw new Error('the runtime is read before its beforeAll started it');
    return harness;
  };
  beforeAll(async () => {
    harness = await start(options());
  });
  afterAll(async () => {
    await harness?.close();
  });
  const call = async (method: string, path: string, body?: unknown, key = api().adminKey) => {
    const res = await api().request(method, path, { key, body });
    expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
    return res.body;
  };
  const settle = async () => {
    await api().drainChanges();
    await api().runNotifyJobs();
  };
  return { api, call, settle };
}

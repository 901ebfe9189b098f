import { afterAll, beforeAll, expect } from 'vitest';
import type { ApiHarness } from '../support/api-harness.ts';
import { pushCheckFixtures } from '../support/push-fixtures.ts';

/**
 * The runtime of an incidents describe block, started before its tests and closed after them:
 * `api()` reads it (in a test or a hook), `call` sends a request as the admin and asserts the
 * status when one is given, `incidentsOf` lists an entity's incidents, `fx` makes push-checked entities and results settled by the change feed.
 */
export function useIncidentApi(start: () => Promise<ApiHarness>) {
  let harness: ApiHarness | undefined;
  const api = (): ApiHarness => {
    if (!harness) throw new Error('the runtime is read before its beforeAll started it');
    return harness;
  };
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected freely
  const call = async (method: string, path: string, body?: unknown, expected?: number): Promise<any> => {
    const res = await api().request(method, path, { key: api().adminKey, body });
    if (expected !== undefined) expect(res.status, `${method} ${path}: ${res.text}`).toBe(expected);
    return res.body;
  };
  beforeAll(async () => {
    harness = await start();
  });
  afterAll(async () => {
    await harness?.close();
  });
  /** The entity's incidents (200), of one state when given. */
  const incidentsOf = async (entityId: string, state?: string) =>
    (
      await call(
        'GET',
        `/v1/incidents?entity_id=${entityId}${state ? `&state=${state}` : ''}`,
        undefined,
        200,
      )
    ).incidents;
  return { api, call, incidentsOf, fx: pushCheckFixtures(call, () => api().drainChanges()) };
}

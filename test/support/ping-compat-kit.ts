import { expect } from 'vitest';
import { latestPings, type PingRecord } from '../../lib/push/log/ping-items.ts';
import type { ApiHarness, ApiResponse } from './api-harness.ts';

/**
 * What the Pinging API compatibility tests (test/push/ping-compat*.test.ts) share: a push check
 * with a ping URL made through the API, and what a ping left behind (its answer, its log item,
 * the check's results and state).
 */
export function pingKit(api: () => ApiHarness) {
  let entityId: string | undefined;
  const call = (method: string, path: string, body?: unknown) =>
    api().request(method, path, { key: api().adminKey, body });

  return {
    call,
    async pushCheck(body: Record<string, unknown> = {}): Promise<{ checkId: string; token: string }> {
      if (!entityId) {
        await call('POST', '/v1/blueprints', { slug: 'cron', name: 'Cron job' });
        const entity = await call('POST', '/v1/blueprints/cron/entities', {
          slug: 'nightly',
          name: 'Nightly',
        });
        entityId = entity.body.id as string;
      }
      const check = await call('POST', '/v1/checks', {
        entity_id: entityId,
        check_type: 'push',
        interval_seconds: 3600,
        failure_threshold: 1,
        ...body,
      });
      expect(check.status, check.text).toBe(201);
      const token = await call('POST', `/v1/checks/${check.body.id}/push-tokens`);
      expect(token.status, token.text).toBe(201);
      return { checkId: check.body.id, token: token.body.token };
    },
    /** The check's ping log, newest first. */
    pings: (checkId: string): Promise<PingRecord[]> => latestPings(api().table, checkId, 50),
    /** The check's results, newest first. */
    // biome-ignore lint/suspicious/noExplicitAny: results are inspected freely
    results: async (checkId: string): Promise<any[]> =>
      (await call('GET', `/v1/checks/${checkId}/results`)).body.results,
    /** The check's state item as the recorder keeps it. */
    state: async (checkId: string) => {
      const run = await api().app.checks.run(api().tenantId, checkId);
      if (!run) throw new Error(`no check ${checkId}`);
      return run.state;
    },
    /** A ping answered as Healthchecks answers: the status, the text, never cached. */
    expectText(res: ApiResponse, status: number, text: string) {
      expect({ status: res.status, text: res.text }).toEqual({ status, text });
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.headers['cache-control']).toBe('no-store');
    },
  };
}

import { beforeAll, describe, expect, it } from 'vitest';
import { readOpenIncidentRecord } from '../../lib/incidents/incident-items.ts';
import { runtimes } from '../support/api-harness.ts';
import { useIncidentApi } from './use-incident-api.ts';

/**
 * Issue 51, "no incident for an entity down since" (DECISIONS.md "Alert truth (wave 5)"): every
 * entity that is down has an open incident, also one that was never up — down from its first
 * results, or degraded from them and then down because of another check — in both runtimes, from
 * real transitions through the change feed.
 */
describe.each(runtimes)('incidents of entities never up ($runtime)', ({ start }) => {
  const { api, call, incidentsOf } = useIncidentApi(start);
  let at = Date.now() - 600_000;
  let entities = 0;

  beforeAll(async () => {
    await call('POST', '/v1/blueprints', { slug: 'svc', name: 'Service' }, 201);
  });

  async function entityWithChecks(name: string, count: number) {
    entities += 1;
    const entity = await call('POST', '/v1/blueprints/svc/entities', { slug: `e${entities}`, name }, 201);
    const checks: string[] = [];
    for (let i = 0; i < count; i += 1) {
      const body = { entity_id: entity.id, check_type: 'push', interval_seconds: 3600, failure_threshold: 1 };
      checks.push((await call('POST', '/v1/checks', body, 201)).id);
    }
    return { entityId: String(entity.id), checks };
  }

  /** One result through the recorder (a push check may be degraded there), then the change feed. */
  async function result(checkId: string, outcome: 'up' | 'degraded' | 'down') {
    at += 1000;
    const recorded = await api().app.recorder.record({
      tenantId: api().tenantId,
      checkId,
      success: outcome !== 'down',
      ...(outcome === 'degraded' ? { degraded: true } : {}),
      status_code: 0,
      latency_ms: 10,
      error_message: outcome === 'up' ? '' : `${outcome} ${checkId}`,
      checkedAtMs: at,
    });
    expect(recorded.status).toBe('recorded');
    await api().drainChanges();
  }

  /** The check the entity's open incident names as its cause (not in the API's record). */
  const openCause = async (entityId: string) =>
    (await readOpenIncidentRecord(api().table, api().tenantId, entityId))?.check_id;
  const stateOf = async (slug: string) => (await call('GET', `/v1/blueprints/svc/entities/${slug}`)).state;

  it('opens one incident for an entity down from its first result, and resolves it when up', async () => {
    const { entityId, checks } = await entityWithChecks('Backup', 1);
    const [check] = checks as [string];
    await result(check, 'down');
    expect(await stateOf(`e${entities}`)).toBe('down');
    expect(await incidentsOf(entityId, 'open')).toMatchObject([{ state: 'open' }]);
    expect(await openCause(entityId)).toBe(check);

    await result(check, 'up');
    expect(await incidentsOf(entityId, 'open')).toEqual([]);
    expect(await incidentsOf(entityId)).toMatchObject([{ state: 'resolved' }]);
  });

  it('opens one incident when a second check takes a degraded entity that was never up down', async () => {
    const { entityId, checks } = await entityWithChecks('Checkout', 2);
    const [slow, failing] = checks as [string, string];
    await result(slow, 'degraded');
    await result(failing, 'up');
    // Degraded from the first results: no incident (DECISIONS.md "Incidents": not from unknown).
    expect(await incidentsOf(entityId)).toEqual([]);

    await result(failing, 'down');
    expect(await stateOf(`e${entities}`)).toBe('down');
    const open = await incidentsOf(entityId, 'open');
    expect(open).toMatchObject([{ state: 'open' }]);
    expect(await openCause(entityId)).toBe(failing);

    // Back to degraded: the incident stays open until the entity is up.
    await result(failing, 'up');
    expect(await incidentsOf(entityId, 'open')).toMatchObject([{ id: open[0].id }]);
    await result(slow, 'up');
    expect(await incidentsOf(entityId, 'open')).toEqual([]);
    expect(await incidentsOf(entityId)).toMatchObject([{ id: open[0].id, state: 'resolved' }]);
  });
});

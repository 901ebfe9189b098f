import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  newCheck,
  newEntity,
  quietPushCheck,
  record,
  recordSlot,
  soloTcpCheck,
} from '../checks/check-fixtures.ts';
import { type ApiHarness, bothRuntimes } from '../support/api-harness.ts';

/**
 * Issue 75, point 10: search answered every check's state as `unknown` (a pull check runs in its
 * cell, whose state its own state item does not follow) or null (a check found by its id or
 * through its entity). Each check found now has the state its page shows, however it was found.
 */
describe.each(bothRuntimes)("search answers each check's state ($runtime runtime)", ({ start }) => {
  let api: ApiHarness;
  let tcp: string;
  let push: string;
  let entityId: string;

  const checksFound = async (q: string) => {
    const res = await api.request('GET', `/v1/search?q=${encodeURIComponent(q)}&kind=check`, {
      key: api.adminKey,
    });
    expect(res.status, res.text).toBe(200);
    return Object.fromEntries(
      (res.body.results as { id: string; state: string | null }[]).map((r) => [r.id, r.state]),
    );
  };

  beforeAll(async () => {
    api = await start();
    entityId = await newEntity(api, { name: 'Ledger' });
    tcp = await newCheck(api, soloTcpCheck(entityId, { name: 'Ledger port', failure_threshold: 1 }));
    push = await newCheck(api, quietPushCheck(entityId, { name: 'Ledger nightly' }));
    const atMs = Date.now() - 60_000;
    await recordSlot(api, tcp, { success: false, checkedAtMs: atMs });
    await record(api, push, { success: true, checkedAtMs: atMs });
  });
  afterAll(async () => {
    await api.close();
  });

  it('shows the state of checks found by name: a pull check in its cell down, a push check up', async () => {
    const shown = await api.request('GET', `/v1/checks/${tcp}`, { key: api.adminKey });
    expect(shown.body.state).toBe('down');
    expect(await checksFound('ledger')).toEqual({ [tcp]: 'down', [push]: 'up' });
  });

  it('shows the state of a check found by its id, and of the checks found through their entity', async () => {
    expect(await checksFound(tcp)).toEqual({ [tcp]: 'down' });
    expect(await checksFound(push)).toEqual({ [push]: 'up' });
    // The entity's slug names neither check: they are found through it.
    const entity = await api.request('GET', `/v1/search?q=${entityId}`, { key: api.adminKey });
    const slug = (entity.body.results as { kind: string; path: string }[])[0]?.path.split('/').at(-1) ?? '';
    expect(await checksFound(slug)).toEqual({ [tcp]: 'down', [push]: 'up' });
  });
});

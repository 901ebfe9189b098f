import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCheckDefinition } from '../../lib/checks/check-items.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { newCheck, newEntity, recordSlot, soloTcpCheck } from './check-fixtures.ts';

/**
 * Page cursors are sealed: opaque, tamper-evident, bound to their list, and still stateless. The
 * checks are pull checks, each alone in its cell: their results are the cell's slots.
 */
describe.each(runtimes)('page cursors ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let other: { tenantId: string; key: string };
  let checkId: string;
  const t0 = Date.now() - 3_600_000;
  const get = (path: string, key = api.adminKey) => api.request('GET', path, { key });
  const withCursor = (path: string, cursor: string) =>
    `${path}${path.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(cursor)}`;

  /** Feeds the check's results and its entity's transitions with alternating outcomes. */
  const history = async (id: string, tenantId: string, count: number) => {
    for (let i = 0; i < count; i += 1) {
      await recordSlot(api, id, { success: i % 2 === 0, checkedAtMs: t0 + i * 1000, tenantId });
    }
  };

  beforeAll(async () => {
    api = await start();
    const entityId = await newEntity(api);
    checkId = await newCheck(api, soloTcpCheck(entityId, { failure_threshold: 1 }));
    await history(checkId, api.tenantId, 6);
    other = await api.createTenant('Initech');
    const otherEntity = await newEntity(api, { key: other.key, name: 'Payroll' });
    const otherCheck = await newCheck(api, soloTcpCheck(otherEntity, { failure_threshold: 1 }), other.key);
    await history(otherCheck, other.tenantId, 6);
  });
  afterAll(async () => {
    await api.close();
  });

  const expectInvalidCursor = (res: { status: number; body: { code: string; error: string } }) => {
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      error: 'invalid cursor',
      details: [{ path: 'cursor', message: expect.any(String) }],
    });
  };

  it('pages with the cursor it handed out, and the cursor does not show the table keys', async () => {
    const first = await get(`/v1/checks/${checkId}/results?limit=4`);
    const cursor: string = first.body.next_cursor;
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(Buffer.from(cursor, 'base64url').toString('latin1')).not.toMatch(/CHECK#|CELLRES#|RES#|"pk"/);
    const second = await get(withCursor(`/v1/checks/${checkId}/results?limit=4`, cursor));
    expect(second.status).toBe(200);
    expect(second.body.results).toHaveLength(2);
    expect(second.body.next_cursor).toBeNull();
  });

  it('refuses a cursor built from raw table keys, even one pointing into the right list', async () => {
    const newest = (await get(`/v1/checks/${checkId}/results?limit=1`)).body.results[0];
    // The check's results are its cell's slot items (docs/data-model.md, cell_results).
    const cell = (await getCheckDefinition(api.table, api.tenantId, checkId))?.cell;
    expect(cell).toBeDefined();
    const raw = await api.table.query({
      pk: `CELLRES#${cell?.cell_id}`,
      sk: { op: 'beginsWith', prefix: 'RES#' },
    });
    const item = raw.items.find((i) => i.sk === `RES#${newest.checked_at}`);
    expect(item).toBeDefined();
    const forged = Buffer.from(JSON.stringify({ pk: item?.pk, sk: item?.sk })).toString('base64url');
    expectInvalidCursor(await get(withCursor(`/v1/checks/${checkId}/results`, forged)));
  });

  it('refuses a cursor with any byte changed', async () => {
    const cursor: string = (await get(`/v1/checks/${checkId}/results?limit=1`)).body.next_cursor;
    const bytes = Buffer.from(cursor, 'base64url');
    for (const at of [0, 5, 20, bytes.length - 1]) {
      const tampered = Buffer.from(bytes);
      tampered[at] = (tampered[at] ?? 0) ^ 0x01;
      expectInvalidCursor(
        await get(withCursor(`/v1/checks/${checkId}/results`, tampered.toString('base64url'))),
      );
    }
  });

  it("refuses another tenant's feed cursor and never shows that tenant's transitions", async () => {
    const theirs = await get('/v1/status/transitions?limit=1', other.key);
    expect(theirs.body.next_cursor).toEqual(expect.any(String));
    expectInvalidCursor(await get(withCursor('/v1/status/transitions', theirs.body.next_cursor)));
    const ours = await get('/v1/status/transitions?limit=1');
    expect(ours.body.next_cursor).not.toBe(theirs.body.next_cursor);
  });

  it('pages the tenant feed with its own cursor', async () => {
    const first = await get('/v1/status/transitions?limit=2');
    const second = await get(withCursor('/v1/status/transitions?limit=2', first.body.next_cursor));
    expect(second.status).toBe(200);
    const ids = [...first.body.transitions, ...second.body.transitions].map((t: { id: string }) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(second.body.transitions.length).toBeGreaterThan(0);
  });
});

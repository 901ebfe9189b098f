import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timeOfPosition } from '../../lib/status/stream-events.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';

/** What the route-table fuzz suite found, each kept as a plain regression test. */

/** Matches the trn id pattern, but its 48-bit time overflows (first character above 7). */
const OVERFLOWING = 'trn_ZZZZZZZZZZZZZZZZZZZZZZZZZZ';

describe('timeOfPosition', () => {
  it('reads an overflowing ULID time as later than any clock instead of throwing', () => {
    expect(timeOfPosition(OVERFLOWING)).toBe(Number.POSITIVE_INFINITY);
    expect(timeOfPosition('trn_7ZZZZZZZZZZZZZZZZZZZZZZZZZ')).toBe(2 ** 48 - 1);
  });
});

describe.each(runtimes)('fuzz findings ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;

  beforeAll(async () => {
    api = await start();
  });
  afterAll(async () => {
    await api.close();
  });

  it('answers 400 to a Last-Event-ID whose ULID time overflows (was a 500 from the ULID decoder)', async () => {
    const res = await api.request('GET', '/v1/status/stream', {
      key: api.adminKey,
      headers: { 'last-event-id': OVERFLOWING },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  it('answers 409 to a second default blueprint under the slug of the current default (was a 500: one transaction touched it twice)', async () => {
    const body = { slug: 'again', name: 'Again', is_default: true };
    const first = await api.request('POST', '/v1/blueprints', { key: api.adminKey, body });
    const second = await api.request('POST', '/v1/blueprints', { key: api.adminKey, body });

    expect(first.status).toBe(201);
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ code: 'CONFLICT' });
  });

  it('answers a small 404 to a relation naming a 100,000-character entity id (the id was echoed whole)', async () => {
    const res = await api.request('POST', '/v1/relations', {
      key: api.adminKey,
      body: { from_entity_id: 'e'.repeat(100_000), to_entity_id: 'f', relation_type: 'depends_on' },
    });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'NOT_FOUND' });
    expect(res.text.length).toBeLessThan(300);
  });
});

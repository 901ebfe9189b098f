import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { READ_GATE_DEFAULTS } from '../../lib/http/routing/read-gate.ts';
import type { QueryInput } from '../../lib/store/table.ts';
import { type ApiHarness, type ApiResponse, runtimes } from '../support/api-harness.ts';

/**
 * The abuse mix of issue 36 item 3 on both runtimes: one key fires many expensive reads at once
 * (status board, metrics, incidents, transitions) while /healthz is polled and another tenant
 * reads its board. The tenant's store reads are held open by the test, so the counts are exact:
 * READ_GATE_DEFAULTS.perTenant run, `queue` wait, the rest are 429 with Retry-After at once, and
 * /healthz and the other tenant answer meanwhile. Behaviour, not timing (timing: the bench).
 */

const { perTenant, queue } = READ_GATE_DEFAULTS;
const EXPENSIVE = ['/v1/status', '/v1/metrics', '/v1/incidents', '/v1/status/transitions'];

describe.each(runtimes)('expensive reads bounded per tenant ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let other: { tenantId: string; key: string };
  let release!: () => void;
  let held: Promise<void> = Promise.resolve();
  const heldQueries: string[] = [];

  beforeAll(async () => {
    api = await start();
    other = await api.createTenant('other');
    for (const key of [api.adminKey, other.key]) {
      await api.request('POST', '/v1/blueprints', { key, body: { slug: 'svc', name: 'Service' } });
      await api.request('POST', '/v1/blueprints/svc/entities', { key, body: { slug: 'a', name: 'A' } });
    }
    // The abusing tenant's queries wait for the test (authentication reads items, not queries).
    const query = api.table.query.bind(api.table);
    vi.spyOn(api.table, 'query').mockImplementation(async (input: QueryInput) => {
      if (JSON.stringify(input).includes(api.tenantId)) {
        heldQueries.push(input.pk);
        await held;
      }
      return query(input);
    });
  });
  afterAll(async () => {
    release?.();
    vi.restoreAllMocks();
    await api?.close();
  });

  it('runs a few, queues a few, refuses the rest at once; /healthz and other tenants answer', async () => {
    held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const total = perTenant + queue + 12;
    const answers: (ApiResponse | undefined)[] = Array(total).fill(undefined);
    const pending = Array.from({ length: total }, (_, i) =>
      api.request('GET', EXPENSIVE[i % EXPENSIVE.length] ?? '/v1/status', { key: api.adminKey }).then((r) => {
        answers[i] = r;
        return r;
      }),
    );
    const refused = () => answers.filter((a) => a?.status === 429);
    // Everything past the running and queued ones is refused while the reads are held open.
    await vi.waitFor(() => expect(refused().length).toBeGreaterThanOrEqual(total - perTenant - queue), {
      timeout: 60_000,
      interval: 50,
    });
    for (const answer of refused()) {
      expect(answer?.headers['retry-after']).toBe('1');
      expect(answer?.body.code).toBe('RATE_LIMITED');
    }
    // /healthz answers while the tenant's expensive reads are stuck, and so does another tenant.
    for (let i = 0; i < 5; i += 1) expect((await api.request('GET', '/healthz')).status).toBe(200);
    const theirs = await api.request('GET', '/v1/status', { key: other.key });
    expect(theirs.status, theirs.text).toBe(200);
    // Only the running reads reached the store (each may make a query or two: never more handlers).
    const entered = new Set(heldQueries).size;
    expect(entered).toBeGreaterThan(0);

    release();
    const done = await Promise.all(pending);
    const statuses = done.map((r) => r.status);
    expect(
      statuses.every((s) => s === 200 || s === 429),
      statuses.join(','),
    ).toBe(true);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(perTenant);
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(perTenant + queue);
    // Slots are given back: the tenant reads again once the burst is over.
    expect((await api.request('GET', '/v1/status', { key: api.adminKey })).status).toBe(200);
  });
});

import { expect } from 'vitest';
import { locationJobOp } from '../../lib/locations/location-job-items.ts';
import { newEntity } from '../checks/check-fixtures.ts';
import type { ApiHarness } from '../support/api-harness.ts';

/** A location of the harness's tenant, with its first key. */
export async function newLocation(api: ApiHarness, name: string, key = api.adminKey) {
  const res = await api.request('POST', '/v1/locations', { key, body: { name, kind: 'agent' } });
  expect(res.status, res.text).toBe(201);
  return { id: res.body.id as string, key: res.body.key as string, keyId: res.body.key_id as string };
}

/** An http check of a new entity probing `targetUrl` from `locations` (once a day: the scheduler leaves it alone). */
export async function locatedHttpCheck(
  api: ApiHarness,
  targetUrl: string,
  locations: string[],
  extra: Record<string, unknown> = {},
): Promise<string> {
  const entity = await newEntity(api);
  const res = await api.request('POST', '/v1/checks', {
    key: api.adminKey,
    body: {
      entity_id: entity,
      check_type: 'http',
      target_url: targetUrl,
      interval_seconds: 86_400,
      locations,
      ...extra,
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

/** Puts the job of one slot for one location, as the check's probe job fans out. */
export async function putLocationJob(
  api: ApiHarness,
  job: { location: string; checkId: string; slotMs: number; deadlineMs: number; tenantId?: string },
) {
  await api.table.transact([
    locationJobOp({
      tenant_id: job.tenantId ?? api.tenantId,
      location: job.location,
      check_id: job.checkId,
      slot_ms: job.slotMs,
      deadline_ms: job.deadlineMs,
      leased_until_ms: 0,
    }),
  ]);
}

/** A result as an agent posts it. */
export function wireResult(atMs: number, success = true) {
  return {
    success,
    status_code: success ? 200 : 503,
    latency_ms: 12,
    error_message: success ? '' : 'expected status 200, got 503',
    checked_at: new Date(atMs).toISOString(),
  };
}

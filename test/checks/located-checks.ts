import { expect } from 'vitest';
import type { Table } from '../../lib/store/table.ts';

/** What the located-check tests drive: a runtime's API (admin key) and its table. */
export interface LocatedDriver {
  table: Table;
  tenantId: string;
  // biome-ignore lint/suspicious/noExplicitAny: API answers are inspected freely
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
}

/** Creates the tenant's named locations (POST /v1/locations) that are not there yet. */
async function ensureLocations(d: LocatedDriver, locations: readonly string[]): Promise<void> {
  for (const name of locations.filter((l) => l !== 'default')) {
    const kind = /^[a-z]{2}-[a-z]+-\d$/.test(name) ? 'aws_region' : 'agent';
    const created = await d.call('POST', '/v1/locations', { name, kind });
    expect([201, 409], JSON.stringify(created.body)).toContain(created.status);
  }
}

/** Names `locations` (and `quorum`) on a check through the API (PUT /v1/checks/{id}). */
export async function locateCheck(
  d: LocatedDriver,
  checkId: string,
  locations: string[],
  quorum: number | null = null,
): Promise<void> {
  await ensureLocations(d, locations);
  const updated = await d.call('PUT', `/v1/checks/${checkId}`, { locations, quorum });
  expect(updated.status, JSON.stringify(updated.body)).toBe(200);
}

/** An enabled located http check, created through the API (POST /v1/checks with its locations). */
export async function createLocatedCheck(
  d: LocatedDriver,
  entityId: string,
  input: { target_url: string; locations: string[]; quorum?: number | null } & Record<string, unknown>,
): Promise<string> {
  await ensureLocations(d, input.locations);
  const created = await d.call('POST', '/v1/checks', {
    entity_id: entityId,
    check_type: 'http',
    interval_seconds: 60,
    timeout_ms: 5000,
    failure_threshold: 1,
    ...input,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return String(created.body.id);
}

import { expect } from 'vitest';
import { definitionUpdatedOp, getCheckDefinition } from '../../lib/checks/check-items.ts';
import { readCheckState, stateOfDefinitionOp } from '../../lib/checks/results/check-state-items.ts';
import { locationJobOp } from '../../lib/locations/location-job-items.ts';
import type { Table } from '../../lib/store/table.ts';
import { newEntity } from '../checks/check-fixtures.ts';
import type { ApiHarness } from '../support/api-harness.ts';

/** A location of the harness's tenant, with its first key. */
export async function newLocation(api: ApiHarness, name: string, key = api.adminKey) {
  const res = await api.request('POST', '/v1/locations', { key, body: { name, kind: 'agent' } });
  expect(res.status, res.text).toBe(201);
  return { id: res.body.id as string, key: res.body.key as string, keyId: res.body.key_id as string };
}

/**
 * Makes a stored check probe from `locations`, out of any cell, as an API write would (both items,
 * the definition's version bumped).
 */
export async function locateCheck(table: Table, tenantId: string, checkId: string, locations: string[]) {
  const definition = await getCheckDefinition(table, tenantId, checkId, { consistent: true });
  const state = await readCheckState(table, tenantId, checkId);
  if (!definition || !state) throw new Error(`no check ${checkId}`);
  await table.transact([
    definitionUpdatedOp(tenantId, checkId, { locations, cell: null }, definition.version),
    stateOfDefinitionOp({
      tenantId,
      checkId,
      copies: {
        execution_mode: state.execution_mode,
        interval_seconds: state.interval_seconds,
        definition_version: definition.version + 1,
      },
    }),
  ]);
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
      ...extra,
    },
  });
  expect(res.status, res.text).toBe(201);
  await locateCheck(api.table, api.tenantId, res.body.id, locations);
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

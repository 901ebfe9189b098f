import { expect } from 'vitest';
import { definitionUpdatedOp, getCheckDefinition } from '../../lib/checks/check-items.ts';
import { stateOfDefinitionOp } from '../../lib/checks/results/check-state-items.ts';
import type { Table } from '../../lib/store/table.ts';

/** What the located-check tests drive: a runtime's API (admin key) and its table. */
export interface LocatedDriver {
  table: Table;
  tenantId: string;
  // biome-ignore lint/suspicious/noExplicitAny: API answers are inspected freely
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
}

/**
 * Names `locations` (and `quorum`) on a check: the check's two items, as the API writes a change
 * (the definition and its version on the state item, in one transaction). Checks API input takes
 * these fields in another branch (h40-checkfields); until then the tests write them here.
 */
export async function locateCheck(
  d: LocatedDriver,
  checkId: string,
  locations: string[],
  quorum: number | null = null,
): Promise<void> {
  const def = await getCheckDefinition(d.table, d.tenantId, checkId, { consistent: true });
  if (!def) throw new Error(`no check ${checkId}`);
  await d.table.transact([
    definitionUpdatedOp(d.tenantId, checkId, { locations, quorum }, def.version),
    stateOfDefinitionOp({
      tenantId: d.tenantId,
      checkId,
      copies: {
        execution_mode: def.execution_mode,
        interval_seconds: def.interval_seconds,
        definition_version: def.version + 1,
      },
    }),
  ]);
}

/**
 * An enabled located http check: created disabled through the API, its locations named, then
 * enabled through the API (which schedules it as the API does any located check: out of cells,
 * in the due index).
 */
export async function createLocatedCheck(
  d: LocatedDriver,
  entityId: string,
  input: { target_url: string; locations: string[]; quorum?: number | null } & Record<string, unknown>,
): Promise<string> {
  const { locations, quorum, ...fields } = input;
  const created = await d.call('POST', '/v1/checks', {
    entity_id: entityId,
    check_type: 'http',
    interval_seconds: 60,
    timeout_ms: 5000,
    failure_threshold: 1,
    ...fields,
    enabled: false,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = String(created.body.id);
  await locateCheck(d, id, locations, quorum ?? null);
  const enabled = await d.call('PUT', `/v1/checks/${id}`, { enabled: true });
  expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
  return id;
}

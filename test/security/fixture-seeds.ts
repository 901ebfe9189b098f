import { expect } from 'vitest';
import { storeArtifacts } from '../../lib/checks/results/evidence.ts';
import { newId } from '../../lib/platform/ids.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import type { ApiHarness } from '../support/api-harness.ts';

/**
 * The fixture's objects that no route creates (an execution, an incident, a delivery record): each
 * stored as its owner stores one, for route-fixtures.ts.
 */

/** A finished execution of the fixture's action, as the runner stores one; answers its id. */
export async function seedExecution(api: ApiHarness, tenantId: string, actionId: string): Promise<string> {
  const at = new Date().toISOString();
  const id = newId('exe');
  const stored = await api.app.executions.putNew({
    id,
    tenant_id: tenantId,
    action_id: actionId,
    trigger: 'manual',
    dispatch_status: 'success',
    status_code: 200,
    latency_ms: 5,
    response_snippet: 'ok',
    error_message: null,
    pipeline_status: null,
    transition_id: null,
    vars: {},
    callback_token_hash: null,
    callback_expires_at: null,
    pipeline_deadline_at: null,
    log_count: 0,
    created_at: at,
    updated_at: at,
  });
  expect(stored).toBe(true);
  return id;
}

/** An open incident of the fixture's entity, opened as the change feed opens one (an up -> down transition); answers its id. */
export async function seedIncident(
  api: ApiHarness,
  key: string,
  tenantId: string,
  checkId: string,
  entityId: string,
): Promise<string> {
  const id = newId('trn');
  await api.app.incidents.apply({
    id,
    tenant_id: tenantId,
    kind: 'entity',
    entity_id: entityId,
    entity_name: 'A',
    check_id: checkId,
    from_state: 'up',
    to_state: 'down',
    reason: 'fixture',
    created_at: new Date().toISOString(),
  });
  const listed = await api.request('GET', `/v1/incidents?entity_id=${entityId}`, { key });
  const incident = listed.body.incidents?.[0]?.id;
  expect(incident, listed.text).toMatch(/^inc_/);
  return incident;
}

/** A failed delivery record of the fixture's check, as the notification flow stores one; answers its id. */
export async function seedDelivery(
  api: ApiHarness,
  tenantId: string,
  checkId: string,
  entityId: string,
  channelId: string,
): Promise<string> {
  const at = new Date().toISOString();
  const id = newId('dlv');
  const transitionId = newId('trn');
  const stored = await api.app.deliveries.putNew(
    {
      id,
      tenant_id: tenantId,
      channel_id: channelId,
      check_id: checkId,
      entity_id: entityId,
      transition_id: transitionId,
      channel_type: 'nats',
      kind: 'alert',
      status: 'failed',
      reason: null,
      attempts: 3,
      attempt_log: [],
      sent_at: null,
      error: 'no NATS server configured',
      created_at: at,
      updated_at: at,
      event: {
        entity_id: entityId,
        entity_name: 'A',
        check_id: checkId,
        tenant_id: tenantId,
        from_state: 'up',
        to_state: 'down',
        transition_id: transitionId,
        timestamp: at,
      },
    },
    30,
  );
  expect(stored).toBe(true);
  return id;
}

/** The smallest JPEG-shaped bytes (SOI, a JFIF APP0 segment, EOI): what a screenshot artifact serves. */
const TINY_JPEG = Buffer.from('ffd8ffe000104a46494600010100000100010000ffd9', 'hex');

/**
 * A screenshot of a result of the fixture's check, stored through the runtime's artifact port as
 * the recorder stores a browser check's (lib/checks/results/evidence.ts); answers the result id
 * and the artifact's name.
 */
export async function seedArtifact(
  api: ApiHarness,
  tenantId: string,
  checkId: string,
): Promise<{ resultId: string; name: string }> {
  const artifacts = api.app.artifacts;
  if (!artifacts) throw new Error(`the ${api.runtime} harness keeps no artifacts`);
  const resultId = newId('res');
  const refs = await storeArtifacts(
    { artifacts, logger: silentLogger },
    { tenantId, checkId, resultId },
    { screenshots: [{ step: 0, jpeg: TINY_JPEG.toString('base64') }] },
  );
  expect(refs).toHaveLength(1);
  return { resultId, name: refs[0]?.name ?? '' };
}

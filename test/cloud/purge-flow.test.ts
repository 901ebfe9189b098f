import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executionPartition } from '../../lib/actions/items/execution-items.ts';
import { adminCall, type LambdaHarness, startLambdaHarness } from '../support/api-harness.ts';
import { entityWithPushCheck } from '../support/push-fixtures.ts';
import { startStatusServer } from '../support/status-server.ts';

/**
 * Deletes through the cloud runtime's Lambda handlers over DynamoDB Local: the api handler answers
 * a delete at once and writes its purge job in the same transaction; the stream function's purge
 * consumer works the job off in rounds (each round's write re-triggers it through DynamoDB Local's
 * stream), each owner purging its own items: the entity's checks (their partitions, results and
 * ping-token lookups), its relations and its open incident (resolved as entity_deleted), and a
 * deleted action's executions.
 */

let h: LambdaHarness;
let hook: Awaited<ReturnType<typeof startStatusServer>>;

beforeAll(async () => {
  hook = await startStatusServer(200);
  h = await startLambdaHarness({ env: { VIGIL_EGRESS_ALLOW: '127.0.0.0/8' } });
  await call('POST', '/v1/blueprints', { slug: 'svc', name: 'Service' });
}, 60_000);

afterAll(async () => {
  await h?.close();
  await hook?.close();
});

const call = (method: string, path: string, body?: unknown) => adminCall(h, method, path, body);

const status = async (method: string, path: string) =>
  (await h.request(method, path, { key: h.adminKey })).status;
const partition = async (pk: string) => (await h.table.query({ pk })).items;

const pushChecked = (slug: string) =>
  entityWithPushCheck(call, { slug, name: `${slug} service` }, { intervalSeconds: 3600 });

describe('purges through the stream function', () => {
  it('purges a deleted entity’s checks, results, ping URLs and relations, and resolves its open incident', async () => {
    const victim = await pushChecked('victim');
    const peer = await pushChecked('peer');
    await call('POST', '/v1/relations', {
      from_entity_id: victim.entityId,
      to_entity_id: peer.entityId,
      relation_type: 'depends_on',
    });
    const { token } = await call('POST', `/v1/checks/${victim.checkId}/push-tokens`);
    expect(await status('GET', `/ping/${token}`)).toBe(200);
    await call('POST', `/v1/checks/${victim.checkId}/results`, { success: false, latency_ms: 5 });
    await call('POST', `/v1/checks/${peer.checkId}/results`, { success: true, latency_ms: 5 });
    await h.drainChanges();
    const [incident] = (await call('GET', `/v1/incidents?entity_id=${victim.entityId}&state=open`)).incidents;
    expect(incident).toBeDefined();
    expect(await partition(`CHECK#${victim.checkId}`)).not.toEqual([]);

    await call('DELETE', '/v1/blueprints/svc/entities/victim');
    expect(await partition(`PURGE#${h.tenantId}`)).not.toEqual([]);
    await h.drainChanges();

    expect(await partition(`PURGE#${h.tenantId}`)).toEqual([]);
    expect(await partition(`CHECK#${victim.checkId}`)).toEqual([]);
    expect(await status('GET', `/v1/checks/${victim.checkId}`)).toBe(404);
    expect(await status('GET', `/ping/${token}`)).toBe(404);
    expect(await call('GET', '/v1/relations')).toEqual([]);
    const resolved = await call('GET', `/v1/incidents/${incident.id}`);
    expect(resolved.state).toBe('resolved');
    expect(resolved.timeline.at(-1)).toMatchObject({
      type: 'resolution',
      transition_id: null,
      reason: 'the entity was deleted',
    });
    // The rest of the catalog stays.
    expect(await status('GET', `/v1/checks/${peer.checkId}`)).toBe(200);
    expect(await partition(`CHECK#${peer.checkId}`)).not.toEqual([]);
    expect(h.notifySqs.deadLetterBodies()).toEqual([]);
  });

  it('purges a deleted action’s executions', async () => {
    const { checkId } = await pushChecked('billing');
    const action = await call('POST', '/v1/actions', {
      name: 'restart billing',
      url: hook.url,
      trigger_type: 'state_change',
      check_id: checkId,
      trigger_to_state: 'down',
    });
    await call('POST', `/v1/checks/${checkId}/results`, { success: false, latency_ms: 5 });
    await h.drainChanges();
    const { executions } = await call('GET', `/v1/actions/${action.id}/executions`);
    expect(executions).toEqual([expect.objectContaining({ dispatch_status: 'success' })]);
    const executionItems = () => partition(executionPartition(String(executions[0].id)));
    expect(await executionItems()).not.toEqual([]);

    await call('DELETE', `/v1/actions/${action.id}`);
    await h.drainChanges();

    expect(await partition(`PURGE#${h.tenantId}`)).toEqual([]);
    expect(await executionItems()).toEqual([]);
    expect(await status('GET', `/v1/actions/${action.id}/executions`)).toBe(404);
    expect(h.actionSqs.deadLetterBodies()).toEqual([]);
  });
});

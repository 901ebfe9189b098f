import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  deadlineJobId,
  runJobId,
  stateChangeExecutionId,
  stateChangeJobId,
} from '../../lib/actions/job-ids.ts';
import type { ActionJob } from '../../lib/actions/jobs.ts';
import { stateChangeEvent, transitionSchema } from '../../lib/checks/records.ts';
import { storedKeys } from '../support/stored-keys.ts';
import { type ActionHarness, startActionHarness } from './support/action-harness.ts';

/** The worker's job as a redelivery hands it over. */
const delivery = (id: string, body: ActionJob) => ({ id, body, attempt: 2, receipt: id });

describe('state_change actions on the local flow (fake time)', () => {
  let h: ActionHarness;

  beforeEach(async () => {
    h = await startActionHarness();
  });

  afterEach(async () => {
    await h.close();
  });

  const hookFields = (checkId: string, extra: Record<string, unknown> = {}) => ({
    trigger_type: 'state_change',
    check_id: checkId,
    url: `${h.receiverUrl}/hook/{{entity_id}}?to={{to_state}}`,
    headers: { 'X-Secret': 's3cret-value' },
    body_template:
      '{"entity":"{{entity_name}}","from":"{{from_state}}","to":"{{to_state}}","transition":"{{transition_id}}","check":"{{check_id}}"}',
    ...extra,
  });

  it('calls the receiver once with the substituted URL, body and secret header when the entity goes down', async () => {
    const { entityId, checkId } = await h.entityWithCheck('a "quoted" name');
    const action = await h.action(hookFields(checkId, { trigger_to_state: 'down' }));
    await h.result(checkId, true);
    expect(h.received).toHaveLength(0);

    await h.result(checkId, false);

    expect(h.received).toHaveLength(1);
    const [got] = h.received;
    const executions = await h.executions(action.id);
    expect(executions).toHaveLength(1);
    const execution = executions[0];
    expect(execution).toMatchObject({
      trigger: 'state_change',
      dispatch_status: 'success',
      status_code: 200,
    });
    expect(got?.method).toBe('POST');
    expect(got?.url).toBe(`/hook/${entityId}?to=down`);
    expect(got?.headers['x-secret']).toBe('s3cret-value');
    expect(JSON.parse(got?.body ?? '')).toEqual({
      entity: 'a "quoted" name',
      from: 'up',
      to: 'down',
      transition: execution?.transition_id,
      check: checkId,
    });
    expect(execution?.transition_id).toMatch(/^trn_/);
    const listed = await h.call('GET', '/v1/actions', undefined, 200);
    expect(JSON.stringify(listed)).toContain('********');
    expect(JSON.stringify(listed)).not.toContain('s3cret-value');
  });

  it("carries in {{transition_id}} the entity transition's id, which GET /v1/status/transitions lists, not the check's own", async () => {
    const { entityId, checkId } = await h.entityWithCheck('svc');
    const action = await h.action(hookFields(checkId, { trigger_to_state: 'down' }));
    await h.result(checkId, false);
    const sent = JSON.parse(h.received[0]?.body ?? '{}') as { transition?: string };
    const [execution] = await h.executions(action.id);
    expect(sent.transition).toBe(execution?.transition_id);

    type Page = { transitions: { id: string; kind: string; entity_id: string; to_state: string }[] };
    const entityTransitions = (await h.call('GET', '/v1/status/transitions', undefined, 200)) as Page;
    const checkTransitions = (await h.call(
      'GET',
      `/v1/checks/${checkId}/transitions`,
      undefined,
      200,
    )) as Page;
    expect(entityTransitions.transitions.find((t) => t.id === sent.transition)).toMatchObject({
      kind: 'entity',
      entity_id: entityId,
      to_state: 'down',
    });
    expect(checkTransitions.transitions.map((t) => t.id)).not.toContain(sent.transition);
  });

  it('fires only the actions whose trigger_to_state matches, and an empty one on every change', async () => {
    const { checkId } = await h.entityWithCheck('svc');
    const onDown = await h.action(
      hookFields(checkId, { trigger_to_state: 'down', url: `${h.receiverUrl}/down` }),
    );
    const onUp = await h.action(hookFields(checkId, { trigger_to_state: 'up', url: `${h.receiverUrl}/up` }));
    const onAny = await h.action(hookFields(checkId, { url: `${h.receiverUrl}/any` }));

    await h.result(checkId, false);
    expect(h.received.map((r) => r.url).sort()).toEqual(['/any', '/down']);

    await h.result(checkId, true);
    expect(h.received.map((r) => r.url).sort()).toEqual(['/any', '/any', '/down', '/up']);
    expect(await h.executions(onDown.id)).toHaveLength(1);
    expect(await h.executions(onUp.id)).toHaveLength(1);
    expect(await h.executions(onAny.id)).toHaveLength(2);
  });

  it("leaves another check's actions alone", async () => {
    const first = await h.entityWithCheck('one');
    const second = await h.entityWithCheck('two');
    const action = await h.action(hookFields(second.checkId));

    await h.result(first.checkId, false);

    expect(h.received).toHaveLength(0);
    expect(await h.executions(action.id)).toHaveLength(0);
  });

  it('makes no second execution when the state_change or the run job is delivered again', async () => {
    const { entityId, checkId } = await h.entityWithCheck('svc');
    const action = await h.action(hookFields(checkId));
    await h.result(checkId, false);
    const [execution] = await h.executions(action.id);
    expect(execution).toBeDefined();
    const transitionId = execution?.transition_id ?? '';
    const transition = await h.table.get(storedKeys.entityTransition(h.tenantId, entityId, transitionId));
    const event = stateChangeEvent(transitionSchema.parse(transition));
    const executionId = stateChangeExecutionId(Date.parse(event.timestamp), transitionId, action.id);
    expect(execution?.id).toBe(executionId);

    // The same job again through the queue (the feed redelivered the change) and by hand (SQS redelivery).
    await h.queue.enqueue([{ id: stateChangeJobId(transitionId), body: { kind: 'state_change', event } }]);
    await h.settle();
    const run: ActionJob = {
      kind: 'run',
      tenant_id: h.tenantId,
      action_id: action.id,
      execution_id: executionId,
      trigger: 'state_change',
      event,
    };
    await h.app.actionWorker.handle(delivery(runJobId(executionId), run));
    await h.app.actionWorker.handle(delivery(runJobId(executionId), run));
    await h.settle();

    expect(h.received).toHaveLength(1);
    expect((await h.executions(action.id)).map((e) => e.id)).toEqual([executionId]);
  });

  it('turns a pipeline that never reports failed at its deadline, with a log line saying why', async () => {
    const { checkId } = await h.entityWithCheck('svc');
    const action = await h.action(hookFields(checkId));
    await h.result(checkId, false);
    const [execution] = await h.executions(action.id);
    expect(execution?.pipeline_deadline_at).not.toBeNull();
    const deadlineMs = Date.parse(execution?.pipeline_deadline_at ?? '');
    expect(deadlineMs - Date.parse(execution?.created_at ?? '')).toBe(3600_000);

    // Five minutes short of the hour: still pending (the wait hops every 15 minutes).
    await h.time.advance(deadlineMs - h.time.clock.now() - 300_000, 60_000);
    expect((await h.app.executions.get(execution?.id ?? ''))?.pipeline_status).toBeNull();

    await h.time.advance(300_000 + 2000, 1000);
    await h.runner.idle();

    const failed = await h.app.executions.get(execution?.id ?? '');
    expect(failed?.pipeline_status).toBe('failed');
    const logs = await h.call('GET', `/v1/actions/executions/${execution?.id}/logs`, undefined, 200);
    expect(JSON.stringify(logs)).toContain('no final status within 3600 s of dispatch');
    expect(h.received).toHaveLength(1);
  });

  it('leaves a pipeline that reported its final status in time as it reported, and a running one fails', async () => {
    const { checkId } = await h.entityWithCheck('svc');
    const done = await h.action(hookFields(checkId, { pipeline_timeout_seconds: 120 }));
    const silent = await h.action(hookFields(checkId, { pipeline_timeout_seconds: 120 }));
    await h.result(checkId, false);
    const [doneRun] = await h.executions(done.id);
    const [silentRun] = await h.executions(silent.id);
    await h.call('POST', `/v1/actions/executions/${doneRun?.id}/events`, { status: 'succeeded' }, 200);
    await h.call('POST', `/v1/actions/executions/${silentRun?.id}/events`, { status: 'running' }, 200);

    await h.time.advance(125_000, 1000);
    await h.runner.idle();
    // A deadline delivered again changes nothing more.
    const again: ActionJob = {
      kind: 'deadline',
      tenant_id: h.tenantId,
      execution_id: silentRun?.id ?? '',
      due_ms: Date.parse(silentRun?.pipeline_deadline_at ?? ''),
    };
    await h.app.actionWorker.handle(delivery(deadlineJobId(silentRun?.id ?? ''), again));

    expect((await h.app.executions.get(doneRun?.id ?? ''))?.pipeline_status).toBe('succeeded');
    expect(await h.app.executions.readLogs(doneRun?.id ?? '')).toEqual([]);
    expect((await h.app.executions.get(silentRun?.id ?? ''))?.pipeline_status).toBe('failed');
    expect((await h.app.executions.readLogs(silentRun?.id ?? '')).map((l) => l.line)).toEqual([
      'no final status within 120 s of dispatch',
    ]);
  });
});

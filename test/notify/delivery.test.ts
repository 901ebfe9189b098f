import { describe, expect, it } from 'vitest';
import { lastSentAtMs } from '../../lib/notify/pipeline/notify-state-items.ts';
import { flowHarnessPerTest } from './support/flow-harness.ts';

const h = flowHarnessPerTest();

const failing = () => ({ ok: false, status_code: 500, error: 'answered 500' });

describe('a delivery', () => {
  it('makes exactly 3 attempts against a failing receiver, 1 s then 2 s apart, then fails', async () => {
    const { checkId } = await h.entityWithCheck('API');
    await h.channel(checkId);
    h.answerWith(failing);
    await h.result(checkId, false);
    expect(h.sent).toHaveLength(1);
    let [record] = await h.logs(checkId);
    expect(record?.status).toBe('retrying');

    await h.time.advance(10_000, 100);
    expect(h.sent).toHaveLength(3);
    const at = h.sent.map((s) => s.atMs);
    expect([(at[1] ?? 0) - (at[0] ?? 0), (at[2] ?? 0) - (at[1] ?? 0)]).toEqual([1000, 2000]);
    [record] = await h.logs(checkId);
    expect(record).toMatchObject({ status: 'failed', attempts: 3, error: 'answered 500', sent_at: null });
    expect(record?.attempt_log.map((a) => a.status_code)).toEqual([500, 500, 500]);
    expect(await h.queue.deadLetters()).toEqual([]);
  });

  it('is sent on its second attempt after one failure', async () => {
    const { checkId } = await h.entityWithCheck('API');
    await h.channel(checkId);
    h.answerWith((_, n) => (n === 1 ? failing() : { ok: true, status_code: 204, error: null }));
    await h.result(checkId, false);
    await h.time.advance(1500, 100);
    const [record] = await h.logs(checkId);
    expect(record).toMatchObject({ status: 'sent', attempts: 2, error: null });
    expect(record?.sent_at).not.toBeNull();
  });

  it('sends nothing twice when the same deliver job comes back', async () => {
    const { checkId } = await h.entityWithCheck('API');
    await h.channel(checkId);
    await h.result(checkId, false);
    const [record] = await h.logs(checkId);
    if (!record) throw new Error('no record');
    const job = { kind: 'deliver' as const, tenant_id: h.tenantId, delivery_id: record.id };
    await h.notifier.handle({ id: `dlv:${record.id}`, body: job, attempt: 1, receipt: 'r' });
    await h.notifier.handle({ id: `dlv:${record.id}`, body: job, attempt: 2, receipt: 'r' });
    expect(h.sent).toHaveLength(1);
    expect((await h.logs(checkId))[0]?.attempt_log).toHaveLength(1);
  });

  it('counts its attempts from the record, not from the receives a store outage used up', async () => {
    const { checkId } = await h.entityWithCheck('API');
    await h.channel(checkId);
    h.answerWith(failing);
    await h.result(checkId, false);
    const [record] = await h.logs(checkId);
    if (!record) throw new Error('no record');
    expect(record.attempts).toBe(1);
    const job = { kind: 'deliver' as const, tenant_id: h.tenantId, delivery_id: record.id };

    // The 9th receive of the job: the 8 before it failed on the store and made no attempt.
    const next = h.notifier.handle({ id: 'x', body: job, attempt: 9, receipt: 'r' });

    await expect(next).rejects.toMatchObject({ name: 'DeliveryAttemptError', retryInSeconds: 2 });
    await expect(next).rejects.toThrow(/attempt 2 failed/);
    expect(h.sent).toHaveLength(2);
    expect((await h.logs(checkId))[0]).toMatchObject({ status: 'retrying', attempts: 2 });
  });

  it('updates the cooldown when sent, and only then', async () => {
    const { checkId } = await h.entityWithCheck('API');
    await h.channel(checkId);
    h.answerWith(failing);
    await h.result(checkId, false);
    await h.time.advance(10_000, 500);
    expect(await lastSentAtMs(h.table, checkId)).toBeUndefined();

    const [failed] = await h.logs(checkId);
    h.answerWith(() => ({ ok: true, status_code: 200, error: null }));
    const retried = await h.call('POST', `/v1/notify/logs/${failed?.id}/retry`, undefined, 200);
    expect(retried).toMatchObject({ id: failed?.id, status: 'pending', attempts: 0 });
    await h.settle();
    const [sent] = await h.logs(checkId);
    expect(sent).toMatchObject({ status: 'sent', attempts: 1 });
    expect(sent?.attempt_log).toHaveLength(4);
    expect(await lastSentAtMs(h.table, checkId)).toBe(h.sent.at(-1)?.atMs);
  });

  it('answers 409 to a retry of a delivery that did not fail, and 404 to an unknown one', async () => {
    const { checkId } = await h.entityWithCheck('API');
    await h.channel(checkId);
    await h.result(checkId, false);
    const [sent] = await h.logs(checkId);
    const conflict = await h.call('POST', `/v1/notify/logs/${sent?.id}/retry`, undefined, 409);
    expect(conflict.code).toBe('CONFLICT');
    await h.call('POST', '/v1/notify/logs/dlv_01J0000000000000000000000/retry', undefined, 404);
  });

  it('fails with "channel removed" when its channel is gone before it is sent', async () => {
    const { checkId } = await h.entityWithCheck('API');
    const channel = await h.channel(checkId);
    h.answerWith(failing);
    await h.result(checkId, false);
    await h.app.channels.remove(checkId, channel.id);
    await h.time.advance(1500, 100);
    expect((await h.logs(checkId))[0]).toMatchObject({ status: 'failed', error: 'channel removed' });
  });

  it('sends a test message to every channel now and answers the records', async () => {
    const { checkId } = await h.entityWithCheck('API');
    await h.channel(checkId);
    await h.channel(checkId);
    const records = await h.notifier.sendTest(h.tenantId, checkId);
    expect(records.map((r) => `${r.kind}:${r.status}:${r.attempts}`)).toEqual(['test:sent:1', 'test:sent:1']);
    expect(records[0]?.transition_id).toBeNull();
    expect(h.sent.map((s) => s.alert.kind)).toEqual(['test', 'test']);
    expect((await h.logs(checkId)).map((r) => r.status)).toEqual(['sent', 'sent']);
  });

  it("answers 404 to a test of another tenant's or an unknown check", async () => {
    const { checkId } = await h.entityWithCheck('API');
    const other = await h.app.tenants.createTenant({ name: 'Other', email: 'o@example.test' });
    await expect(h.notifier.sendTest(other.tenant.id, checkId)).rejects.toThrow(/check not found/);
    await h.call('POST', '/v1/checks/chk_01J0000000000000000000000/policy/test', undefined, 404);
  });
});

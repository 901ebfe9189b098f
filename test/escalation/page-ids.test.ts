import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNtfyReceiver } from '../support/receivers/ntfy.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp-server.ts';
import { tableEngines } from '../support/table-engines.ts';
import { losingUpdates, pagingRig } from './paging-rig.ts';

/**
 * Pages are sent at least once (issue 75 item 3): a job killed between a page's send and its
 * outcome's write leaves the claim pending, and the job's next delivery sends the page again once
 * the claim counts as abandoned (2 minutes). The second send carries the first one's id where the
 * provider takes one, so the person's side can tell it is the same page: e-mail's
 * `X-Vigil-Delivery`, ntfy's `X-Sequence-ID` (which replaces the first notification on the
 * person's devices). On both engines of the store, with a real SMTP server and an ntfy topic on
 * 127.0.0.1; the kill is a table that drops the write of the sends' outcomes.
 */

let smtp: TestSmtpServer;
let ntfy: Awaited<ReturnType<typeof startNtfyReceiver>>;
beforeAll(async () => {
  smtp = await startSmtpServer();
  ntfy = await startNtfyReceiver('ana-pages');
});
afterAll(async () => {
  await smtp.close();
  await ntfy.close();
});

describe.each(tableEngines())('a page sent again after its claim was abandoned, on $engine', (engine) => {
  it('carries the first send’s id to the mail server and to ntfy', async () => {
    let killed = true;
    const table = losingUpdates(engine.make(), (op) => killed && op.set?.outcome === 'sent');
    const rig = await pagingRig(table, smtp);
    const [ana] = await rig.people(['ana'], [{ kind: 'ntfy', address: ntfy.url }]);
    if (!ana) throw new Error('people');
    const policyId = await rig.policyPaging([ana.id]);
    const change = rig.downChange(policyId);
    expect(await change.open()).toBe(true);
    const mails = smtp.received.length;
    const pushes = ntfy.headers.length;

    await rig.handle(change.job);
    expect(smtp.received.length - mails).toBe(1);
    expect(ntfy.headers.length - pushes).toBe(1);

    // The job's next delivery, once the claims count as abandoned (the queue brings a killed job back).
    killed = false;
    rig.clock.advance(121_000);
    await rig.handle(change.job);

    const delivered = smtp.received.slice(mails).map((m) => m.message.headers.get('x-vigil-delivery'));
    expect(delivered).toHaveLength(2);
    expect(delivered[0]).toBe(`${change.incident.id}:${policyId}:0:0:u:${ana.id}:${ana.methodId}:0`);
    expect(delivered[1]).toBe(delivered[0]);
    const sequence = ntfy.headers.slice(pushes).map((h) => h['x-sequence-id']);
    expect(sequence).toHaveLength(2);
    expect(sequence[0]).toMatch(/^[-_A-Za-z0-9]{1,64}$/);
    expect(sequence[1]).toBe(sequence[0]);
  });
});

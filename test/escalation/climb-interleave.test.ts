import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp-server.ts';
import { tableEngines } from '../support/table-engines.ts';
import { interleaved, pagingRig } from './paging-rig.ts';

/**
 * A climb's first step may come before the incidents consumer stored the incident its change
 * opened: the job reads the incident, then (not found) the entity's open incident. Issue 75 item 2:
 * when the consumer committed between those two reads, the job took its own incident for "another
 * open incident" and ended the climb with nobody paged and nothing logged. The consumer's commit is
 * run deterministically between the two reads (a table that runs it after the job's first read of
 * the incident finds nothing), on both engines of the store; people are paged by e-mail through a
 * real SMTP server. A climb that ends without a page says why in the log.
 */

let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(() => smtp.close());

describe.each(tableEngines())('a climb’s first step on $engine', (engine) => {
  it('pages when the incidents consumer commits the incident between the job’s two reads', async () => {
    let commit: () => Promise<unknown> = async () => undefined;
    let incidentId = '';
    const table = interleaved(
      engine.make(),
      (key) => incidentId !== '' && key.sk === incidentId,
      () => commit(),
    );
    const rig = await pagingRig(table, smtp);
    const [ana] = await rig.people(['ana']);
    if (!ana) throw new Error('people');
    const change = rig.downChange(await rig.policyPaging([ana.id]));
    incidentId = change.incident.id;
    commit = change.open;
    const mark = smtp.received.length;

    await rig.handle(change.job);

    expect(smtp.received.slice(mark).map((m) => m.to.join(','))).toEqual([ana.email]);
    expect(rig.lines.filter((l) => l.msg.startsWith('escalation climb ended'))).toEqual([]);
  });

  it('ends with nobody paged and says why when another incident of the entity is open', async () => {
    const rig = await pagingRig(engine.make(), smtp);
    const [ben] = await rig.people(['ben']);
    if (!ben) throw new Error('people');
    const policyId = await rig.policyPaging([ben.id]);
    const earlier = rig.downChange(policyId);
    expect(await earlier.open()).toBe(true);
    rig.clock.advance(60_000);
    // A later change of the same entity into down that opened no incident (the earlier is open).
    const later = rig.downChange(policyId);
    const job = { ...later.job, event: { ...later.job.event, entity_id: earlier.event.entity_id } };
    const mark = smtp.received.length;

    await rig.handle(job);

    expect(smtp.received.length).toBe(mark);
    expect(rig.lines.filter((l) => l.msg.startsWith('escalation climb ended'))).toEqual([
      expect.objectContaining({
        msg: 'escalation climb ended without a page: the change opened no incident, another of the entity is open',
        incident_id: later.incident.id,
        open_incident_id: earlier.incident.id,
      }),
    ]);
  });

  it('says why in the log when the step’s policy is gone', async () => {
    const rig = await pagingRig(engine.make(), smtp);
    const [cai] = await rig.people(['cai']);
    if (!cai) throw new Error('people');
    const change = rig.downChange(await rig.policyPaging([cai.id]));
    expect(await change.open()).toBe(true);
    await rig.handle({ ...change.job, policy_id: 'esp_gone' });
    expect(rig.lines.map((l) => l.msg)).toContain(
      'escalation climb ended without a page: the policy is gone',
    );
  });
});

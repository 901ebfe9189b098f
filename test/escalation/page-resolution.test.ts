import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userReportOp } from '../../lib/auth/records.ts';
import { resolvedOnQueue } from '../../lib/escalation/resolution-hook.ts';
import { resolveIncident } from '../../lib/incidents/incident-items.ts';
import { isoTime } from '../../lib/platform/clock.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import { startNtfyReceiver } from '../support/receivers/ntfy.ts';
import { decodeWords, startSmtpServer, type TestSmtpServer } from '../support/smtp-server.ts';
import { tableEngines } from '../support/table-engines.ts';
import { pagingRig } from './paging-rig.ts';

/**
 * A page ends with a resolution message (issue 75 item 10): when the incident is resolved, each
 * person its climb reached is told, once per contact method a page reached them by, in their time
 * zone; a redelivered job tells nobody twice, and a person never paged is told nothing. The page
 * itself says why (the check's words) and when, in the person's zone. On both engines of the store,
 * with a real SMTP server and an ntfy topic on 127.0.0.1. The hooks that queue the job when an
 * incident resolves (the incidents consumer, the service's resolve) run in test/escalation/climb.test.ts
 * and test/cloud/job-kinds.test.ts.
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

describe.each(tableEngines())('the people a climb paged, on $engine', (engine) => {
  it('are paged with the reason in their zone, and told once by each method when the incident is resolved', async () => {
    const table = engine.make();
    const rig = await pagingRig(table, smtp);
    const [ana, ben] = await rig.people(['ana', 'ben'], [{ kind: 'ntfy', address: ntfy.url }]);
    if (!ana || !ben) throw new Error('people');
    await table.transact([
      userReportOp(rig.tenantId, ana.id, {
        report: 'off',
        report_time_zone: 'Europe/Berlin',
        report_since: isoTime(rig.clock.now()),
        updated_at: isoTime(rig.clock.now()),
      }),
    ]);
    // Only ana is paged (ben is on no step).
    const change = rig.downChange(await rig.policyPaging([ana.id]));
    expect(await change.open()).toBe(true);
    const mails = smtp.received.length;
    const pushes = ntfy.bodies.length;
    await rig.handle(change.job);
    const [page] = smtp.received.slice(mails);
    // 09:00 UTC on 2 March is 10:00 in Berlin.
    expect(page?.message.text).toContain('Shop API is down since 2 Mar 2026, 10:00 (Europe/Berlin)');
    expect(page?.message.text).toContain('Why: HTTP 503 from https://shop.example.com/health');
    expect(ntfy.bodies.slice(pushes)).toHaveLength(1);

    rig.clock.advance(7 * 60_000);
    const resolution = { at: isoTime(rig.clock.now()), transitionId: null, cause: 'manual' } as const;
    expect(await resolveIncident(table, change.incident, resolution, 0)).toBe(true);
    const resolved = {
      ...change.incident,
      state: 'resolved' as const,
      resolved_at: resolution.at,
      resolution: 'manual' as const,
    };
    await resolvedOnQueue(table, rig.queue, silentLogger)(resolved);
    const jobs = rig.queue.enqueued.filter((j) => j.body.kind === 'page_resolved');
    expect(jobs.map((j) => j.id)).toEqual([`pgr:${change.incident.id}`]);
    const job = jobs[0]?.body;
    if (job?.kind !== 'page_resolved') throw new Error('no resolution job');
    await rig.handle(job);
    // Delivered again: nobody is told twice.
    await rig.handle(job);

    const told = smtp.received.slice(mails + 1);
    expect(told.map((m) => m.to.join(','))).toEqual([ana.email]);
    expect(decodeWords(told[0]?.message.headers.get('subject') as string)).toBe('[Vigil] Resolved: Shop API');
    expect(told[0]?.message.text).toContain(
      'resolved since 2 Mar 2026, 10:07 (Europe/Berlin): it was resolved by hand',
    );
    expect(ntfy.bodies.slice(pushes + 1)).toHaveLength(1);
    expect(ntfy.bodies.at(-1)).toContain('resolved since 2 Mar 2026, 10:07 (Europe/Berlin)');
  });

  it('queues nothing when the incident paged nobody', async () => {
    const table = engine.make();
    const rig = await pagingRig(table, smtp);
    const change = rig.downChange(await rig.policyPaging([]));
    expect(await change.open()).toBe(true);
    await resolvedOnQueue(table, rig.queue, silentLogger)({ ...change.incident, state: 'resolved' });
    expect(rig.queue.enqueued).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { climbStartJobId } from '../../lib/notify/items/job-ids.ts';
import { isoTime } from '../../lib/platform/clock.ts';
import { pageablePeople, policyOfSteps } from '../escalation/support.ts';
import { entityWithPushCheck } from '../support/push-fixtures.ts';
import { climbRig } from './climb-rig.ts';

/**
 * An escalation policy's climb on the cloud runtime: the api, stream function and notifier Lambda
 * handlers over DynamoDB Local and fauxqs, on a fake clock, people paged by e-mail through the SES
 * transport (its client captured: test/support/ses-outbox.ts). The cases of the local runtime's
 * test/escalation/climb.test.ts: each step's person at its delay and the repeat, then no more; an
 * acknowledgement after the second step stops the climb; a redelivered step pages nobody twice;
 * the entity's recovery ends the climb. Each step is a `climb` job on the notify queue, delayed
 * until it is due; fauxqs delays in real time, so once the fake clock passes a job's due time the
 * test sends it again with no delay (test/cloud/queue-kinds.ts `dueJobRequeuer`), as the queue
 * does when the delay ends. That also delivers the jobs due at once twice: a redelivery each time.
 */

const MINUTE = 60_000;
const { clock, flow, call, ses, settle, climbTo, mailedSince } = climbRig();

/** Three (or `names.length`) people, a policy of a step each and a route of `slug`'s entity to it; the entity goes down. */
async function climbing(slug: string, names: string[], delaysSeconds: number[], repeat: number) {
  const people = await pageablePeople(
    { table: flow.h.table, tenantId: flow.h.tenantId, time: { clock } },
    names,
  );
  const { entityId, checkId } = await entityWithPushCheck(call, { slug, name: `${slug} service` });
  const steps = people.map((p, i) => ({ userId: p.id, delaySeconds: delaysSeconds[i] ?? 60 }));
  const policyId = await policyOfSteps(flow, steps, repeat, [entityId]);
  await flow.push(checkId, true);
  clock.advance(1000);
  const mark = ses.mails().length;
  const start = clock.now();
  await flow.push(checkId, false);
  await settle();
  const { incidents } = await call('GET', `/v1/incidents?entity_id=${entityId}&state=open`);
  expect(incidents).toHaveLength(1);
  return { people, checkId, policyId, mark, start, incidentId: String(incidents[0].id) };
}

/** The incident's page entries as `round:step:user:kind:outcome@at`. */
async function pagesOf(incidentId: string) {
  const { timeline } = await call('GET', `/v1/incidents/${incidentId}`);
  return (timeline as Record<string, unknown>[])
    .filter((e) => e.type === 'page')
    .map((p) => `${p.round}:${p.step}:${p.user_id}:${p.contact_kind}:${p.outcome}@${p.at}`);
}

/** The climb jobs of the incident the queue accepted so far, one per id (sent again or not), in order. */
const climbJobs = (incidentId: string) => [
  ...new Map(
    flow
      .queued('climb')
      .filter((q) => q.job.incident_id === incidentId)
      .map((q) => [q.id, q]),
  ).values(),
];

describe('an escalation policy’s climb on the cloud runtime', () => {
  it('pages each step’s person at its delay, then climbs again for the repeat, and stops', async () => {
    const { people, mark, start, incidentId } = await climbing(
      'api',
      ['ana', 'ben', 'cai'],
      [300, 600, 300],
      1,
    );
    const [a, b, c] = people.map((p) => p.email);
    // At each moment (after the opening), whom SES has been asked to mail.
    const ladder: [number, (string | undefined)[]][] = [
      [0, [a]],
      [5 * MINUTE - 10_000, [a]],
      [5 * MINUTE, [a, b]],
      [15 * MINUTE - 10_000, [a, b]],
      [15 * MINUTE, [a, b, c]],
      [20 * MINUTE - 10_000, [a, b, c]],
      [20 * MINUTE, [a, b, c, a]],
      [25 * MINUTE, [a, b, c, a, b]],
      [35 * MINUTE, [a, b, c, a, b, c]],
      [90 * MINUTE, [a, b, c, a, b, c]],
    ];
    for (const [ms, mailed] of ladder) {
      await climbTo(start + ms);
      expect(mailedSince(mark), `${ms / 1000} s after the opening`).toEqual(mailed);
    }

    const mail = ses.mails()[mark];
    expect(mail?.subject).toBe('[Vigil] api service is down: page from "Ladder", step 1');
    expect(mail?.text).toContain(`Incident ${incidentId}`);
    expect(mail?.text).toContain(`Open: https://vigil.example.com/incidents/${incidentId}`);
    const at = [0, 5, 15, 20, 25, 35].map((m) => isoTime(start + m * MINUTE));
    expect(await pagesOf(incidentId)).toEqual(
      [0, 1].flatMap((round) =>
        people.map((p, step) => `${round}:${step}:${p.id}:email:sent@${at[round * 3 + step]}`),
      ),
    );
    // The last step of the last round enqueued nothing more.
    expect(climbJobs(incidentId).map((q) => `${q.job.round}:${q.job.step}`)).toEqual([
      '0:0',
      '0:1',
      '0:2',
      '1:0',
      '1:1',
      '1:2',
    ]);
  });

  it('stops at the acknowledgement after the second step: the third step is never paged, nor the repeat', async () => {
    const { people, mark, start, incidentId } = await climbing(
      'db',
      ['dora', 'eli', 'fay'],
      [300, 300, 300],
      2,
    );
    const [a, b] = people;
    await climbTo(start + 5 * MINUTE);
    expect(mailedSince(mark)).toEqual([a?.email, b?.email]);
    await climbTo(start + 6 * MINUTE);
    await call('POST', `/v1/incidents/${incidentId}/acknowledge`);
    await settle();
    await climbTo(start + 60 * MINUTE);
    expect(mailedSince(mark)).toEqual([a?.email, b?.email]);

    const me = (await call('GET', '/v1/me')).user.id;
    const { timeline } = await call('GET', `/v1/incidents/${incidentId}`);
    expect(timeline.filter((e: { type: string }) => e.type === 'acknowledgement')).toEqual([
      { type: 'acknowledgement', at: isoTime(start + 6 * MINUTE), by: me },
    ]);
    expect(await pagesOf(incidentId)).toEqual([
      `0:0:${a?.id}:email:sent@${isoTime(start)}`,
      `0:1:${b?.id}:email:sent@${isoTime(start + 5 * MINUTE)}`,
    ]);
    // The third step's job came and paged nobody; it enqueued no step after it.
    expect(climbJobs(incidentId).map((q) => q.job.step)).toEqual([0, 1, 2]);
    expect(flow.queued('page_contact')).toEqual([]);
  });

  it('pages nobody twice when a step’s job is delivered again', async () => {
    const { people, mark, start, incidentId, policyId } = await climbing(
      'shop',
      ['gus', 'hal'],
      [300, 300],
      0,
    );
    await climbTo(start + 5 * MINUTE);
    const mailed = people.map((p) => p.email);
    expect(mailedSince(mark)).toEqual(mailed);
    const jobs = climbJobs(incidentId);
    const [routeId] = jobs.map((q) => q.job.route_id);
    expect(jobs.map((q) => q.id)).toEqual([
      climbStartJobId(incidentId, String(routeId)),
      `clb:${incidentId}:${policyId}:0:1`,
    ]);
    // Each step's job again, under its own id and another (a redelivery, a second send).
    await flow.requeueNow(jobs.flatMap((q) => [q, { ...q, id: `${q.id}:again` }]));
    await settle();
    await climbTo(start + 20 * MINUTE);
    expect(mailedSince(mark)).toEqual(mailed);
    expect(await pagesOf(incidentId)).toEqual(
      people.map((p, step) => `0:${step}:${p.id}:email:sent@${isoTime(start + step * 5 * MINUTE)}`),
    );
  });

  it('ends the climb when the entity recovers: the step due afterwards pages nobody, the person paged is told', async () => {
    const { people, mark, start, incidentId, checkId } = await climbing('pay', ['ivy', 'jon'], [300, 300], 0);
    const [a] = people;
    expect(mailedSince(mark)).toEqual([a?.email]);
    await climbTo(start + 2 * MINUTE);
    await flow.push(checkId, true);
    expect((await call('GET', `/v1/incidents/${incidentId}`)).state).toBe('resolved');
    await climbTo(start + 20 * MINUTE);
    // Ivy, paged, is told the incident is over (issue 75 item 10); jon, never paged, hears nothing.
    expect(mailedSince(mark)).toEqual([a?.email, a?.email]);
    expect(ses.mails().at(-1)?.subject).toBe('[Vigil] Resolved: pay service');
    expect(ses.mails().at(-1)?.text).toContain('it is up again');
    expect(await pagesOf(incidentId)).toEqual([
      `0:0:${a?.id}:email:sent@${isoTime(start)}`,
      `0:0:${a?.id}:email:sent@${isoTime(start + 2 * MINUTE)}`,
    ]);
    // The second step's job was queued, due after the recovery, and came (the clock passed it).
    const [, second] = climbJobs(incidentId);
    expect(second?.job.due_ms).toBe(start + 5 * MINUTE);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { NotifyJob } from '../../lib/notify/jobs.ts';
import { downEntity } from '../notify/support/flow-harness.ts';
import { decodeWords } from '../support/smtp-server.ts';
import { entityOnLadder, pageablePeople, pagingFlowHarness, policyOfSteps } from './support.ts';

/**
 * An escalation policy's climb on the local runtime's real notification flow (SQLite, change feed,
 * durable notify queue, job runner) on fake time, people paged by e-mail through a real SMTP
 * server: each step's person at its delay and the repeat; an acknowledgement stops the climb; a
 * redelivered step pages nobody twice; and, over generated policies and acknowledgement times,
 * every page sent is of a step due before the acknowledgement, each such step paged exactly once.
 * The same cases on the cloud runtime's Lambda handlers: test/cloud/policy-climb-flow.test.ts.
 */

const { h, smtp, mailedSince, until } = pagingFlowHarness();

const MINUTE = 60_000;

// biome-ignore lint/suspicious/noExplicitAny: timeline entries are inspected freely
const pagesOf = async (incidentId: string): Promise<any[]> =>
  (await h.call('GET', `/v1/incidents/${incidentId}`, undefined, 200)).timeline.filter(
    (e: { type: string }) => e.type === 'page',
  );

describe('an escalation policy’s climb', () => {
  it('pages each step’s person at its delay, then climbs again for the repeat, and stops', async () => {
    const [a, b, c] = await pageablePeople(h, ['ana', 'ben', 'cai']);
    if (!a || !b || !c) throw new Error('people');
    await policyOfSteps(
      h,
      [
        { userId: a.id, delaySeconds: 300 },
        { userId: b.id, delaySeconds: 600 },
        { userId: c.id, delaySeconds: 300 },
      ],
      1,
    );
    const mark = smtp().received.length;
    const start = h.time.clock.now();
    const { incidentId } = await downEntity(h);
    await until(start, 20_000);
    expect(mailedSince(mark)).toEqual([a.email]);
    await until(start, 4 * MINUTE + 50_000);
    expect(mailedSince(mark)).toEqual([a.email]);
    await until(start, 5 * MINUTE + 30_000);
    expect(mailedSince(mark)).toEqual([a.email, b.email]);
    await until(start, 14 * MINUTE + 50_000);
    expect(mailedSince(mark)).toEqual([a.email, b.email]);
    await until(start, 15 * MINUTE + 30_000);
    expect(mailedSince(mark)).toEqual([a.email, b.email, c.email]);
    await until(start, 20 * MINUTE + 30_000);
    expect(mailedSince(mark)).toEqual([a.email, b.email, c.email, a.email]);
    await until(start, 90 * MINUTE);
    expect(mailedSince(mark)).toEqual([a.email, b.email, c.email, a.email, b.email, c.email]);

    const mail = smtp().received[mark]?.message;
    expect(decodeWords(mail?.headers.get('subject') ?? '')).toBe(
      '[Vigil] API is down: page from "Ladder", step 1',
    );
    expect(mail?.text).toContain(`Incident ${incidentId}`);
    expect(mail?.text).toContain(`Open: https://vigil.example.com/incidents/${incidentId}`);
    const pages = await pagesOf(incidentId);
    expect(pages.map((p) => `${p.round}:${p.step}:${p.user_id}:${p.contact_kind}:${p.outcome}`)).toEqual(
      [0, 1].flatMap((round) => [a, b, c].map((person, step) => `${round}:${step}:${person.id}:email:sent`)),
    );
  });

  it('stops at the acknowledgement: the third step is never paged, nor the repeat', async () => {
    const [a, b, c] = await pageablePeople(h, ['ana', 'ben', 'cai']);
    if (!a || !b || !c) throw new Error('people');
    await policyOfSteps(
      h,
      [
        { userId: a.id, delaySeconds: 300 },
        { userId: b.id, delaySeconds: 300 },
        { userId: c.id, delaySeconds: 300 },
      ],
      2,
    );
    const mark = smtp().received.length;
    const start = h.time.clock.now();
    const { incidentId } = await downEntity(h);
    await until(start, 6 * MINUTE);
    expect(mailedSince(mark)).toEqual([a.email, b.email]);
    await h.call('POST', `/v1/incidents/${incidentId}/acknowledge`, undefined, 200);
    await until(start, 60 * MINUTE);
    expect(mailedSince(mark)).toEqual([a.email, b.email]);
    const incident = await h.call('GET', `/v1/incidents/${incidentId}`, undefined, 200);
    expect(incident.timeline.filter((e: { type: string }) => e.type === 'acknowledgement')).toHaveLength(1);
    expect((await pagesOf(incidentId)).map((p) => p.user_id)).toEqual([a.id, b.id]);
  });

  it('pages nobody twice when a step’s job is delivered again', async () => {
    const [a, b] = await pageablePeople(h, ['ana', 'ben']);
    if (!a || !b) throw new Error('people');
    const policyId = await policyOfSteps(
      h,
      [
        { userId: a.id, delaySeconds: 300 },
        { userId: b.id, delaySeconds: 300 },
      ],
      0,
    );
    const mark = smtp().received.length;
    const start = h.time.clock.now();
    const { incidentId, checkId } = await downEntity(h);
    await until(start, 6 * MINUTE);
    expect(mailedSince(mark)).toEqual([a.email, b.email]);
    const [opening] = (await h.logs(checkId)).filter(
      (l) => l.kind === 'alert' && l.event.to_state === 'down',
    );
    const { routes } = await h.call('GET', '/v1/notify/routes', undefined, 200);
    const again: NotifyJob = {
      kind: 'climb',
      event: opening?.event as NonNullable<typeof opening>['event'],
      incident_id: incidentId,
      route_id: routes[0].id,
      policy_id: policyId,
      round: 0,
      step: 1,
      due_ms: start + 5 * MINUTE,
    };
    await h.queue.enqueue([{ id: 'clb-redelivered', body: again }]);
    await until(start, 20 * MINUTE);
    expect(mailedSince(mark)).toEqual([a.email, b.email]);
    expect((await pagesOf(incidentId)).map((p) => p.user_id)).toEqual([a.id, b.id]);
  });

  it('tells the people it paged when the incident is over: by the recovery, or resolved by hand', async () => {
    const [a, b] = await pageablePeople(h, ['ana', 'ben']);
    if (!a || !b) throw new Error('people');
    await policyOfSteps(
      h,
      [
        { userId: a.id, delaySeconds: 300 },
        { userId: b.id, delaySeconds: 300 },
      ],
      0,
    );
    const mark = smtp().received.length;
    const start = h.time.clock.now();
    const { checkId } = await downEntity(h);
    await until(start, 2 * MINUTE);
    expect(mailedSince(mark)).toEqual([a.email]);
    await h.result(checkId, true);
    await until(start, 20 * MINUTE);
    // Ana was paged and is told; ben's step came after the recovery: never paged, never told.
    expect(mailedSince(mark)).toEqual([a.email, a.email]);
    const told = smtp().received.at(-1)?.message;
    expect(decodeWords(told?.headers.get('subject') ?? '')).toBe('[Vigil] Resolved: API');
    expect(told?.text).toContain('it is up again');

    const again = smtp().received.length;
    await h.result(checkId, false);
    const { incidents } = await h.call('GET', '/v1/incidents?state=open', undefined, 200);
    await until(start, 22 * MINUTE);
    expect(mailedSince(again)).toEqual([a.email]);
    await h.call('POST', `/v1/incidents/${incidents[0].id}/resolve`, undefined, 200);
    await until(start, 40 * MINUTE);
    expect(mailedSince(again)).toEqual([a.email, a.email]);
    expect(smtp().received.at(-1)?.message.text).toContain('it was resolved by hand');
  });

  it('answers who is on call for a team from its policy’s first step’s schedule', async () => {
    const me = (await h.call('GET', '/v1/me', undefined, 200)).user.id;
    const schedule = await h.call(
      'POST',
      '/v1/schedules',
      {
        name: 'Rota',
        time_zone: 'UTC',
        layers: [
          { name: 'All', members: [me], rotation: { type: 'weekly', handoff: '09:00', start: '2026-01-05' } },
        ],
      },
      201,
    );
    const policy = await h.call(
      'POST',
      '/v1/escalation-policies',
      { name: 'Via rota', steps: [{ delay_seconds: 60, targets: [{ type: 'schedule', id: schedule.id }] }] },
      201,
    );
    const team = await h.call('POST', '/v1/teams', { name: 'Ops', escalation_policy_id: policy.id }, 201);
    const who = await h.call('GET', `/v1/oncall?team_id=${team.id}`, undefined, 200);
    expect(who.on_call.map((r: { user: { id: string } | null }) => r.user?.id)).toEqual([me]);
    expect(who.on_call[0].path.schedule).toEqual({ id: schedule.id, name: 'Rota' });
  });

  it('pages, over generated policies and acknowledgement times, every step due before the acknowledgement exactly once and nothing after', async () => {
    const seed = Date.now() % 2 ** 31;
    console.log(`escalation climb property seed: ${seed}`);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 0, max: 1 }),
        fc.integer({ min: 0, max: 40 }),
        async (delayMinutes, repeat, ackMinute) => {
          run += 1;
          const people = await pageablePeople(
            h,
            delayMinutes.map((_, i) => `p${run}s${i}`),
          );
          const fixture = await entityOnLadder(
            h,
            run,
            people.map((p, i) => ({ userId: p.id, delaySeconds: (delayMinutes[i] ?? 1) * 60 })),
            repeat,
          );
          const mark = smtp().received.length;
          const start = h.time.clock.now();
          await h.result(fixture.checkId, false);
          const { incidents } = await h.app.incidents.list(
            { tenantId: h.tenantId, userId: 'usr_test' },
            { limit: 10, entity_id: fixture.entityId, state: 'open' },
          );
          const incidentId = String(incidents[0]?.id);
          // Acknowledged half a minute past a whole minute: never at a step's due time.
          const ackMs = ackMinute * MINUTE + 30_000;
          await until(start, ackMs);
          await h.call('POST', `/v1/incidents/${incidentId}/acknowledge`, undefined, 200);
          const total = delayMinutes.reduce((n, d) => n + d, 0) * (repeat + 1);
          await until(start, Math.max(ackMs, total * MINUTE) + 10 * MINUTE);
          // The steps due before the acknowledgement: step k of round r at the delays before it.
          const expected: string[] = [];
          let at = 0;
          for (let round = 0; round <= repeat; round += 1)
            delayMinutes.forEach((delay, step) => {
              if (at * MINUTE < ackMs) expected.push(people[step]?.email ?? '');
              at += delay;
            });
          expect(mailedSince(mark)).toEqual(expected);
          expect((await pagesOf(incidentId)).filter((p) => p.outcome === 'sent')).toHaveLength(
            expected.length,
          );
        },
      ),
      { seed, numRuns: 4 },
    );
  }, 240_000);
});

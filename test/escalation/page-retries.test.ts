import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_PAGE_ATTEMPTS, takePage } from '../../lib/escalation/page-items.ts';
import { newPage } from '../../lib/escalation/page-person.ts';
import { downEntity } from '../notify/support/flow-harness.ts';
import { entityOnLadder, pageablePeople, pagingFlowHarness, policyOfSteps } from './support.ts';

/**
 * A page that did not arrive is sent again, never twice once it did: on the local runtime's real
 * notification flow on fake time, people paged by e-mail through a real SMTP server that refuses
 * what it is told to. A refused send is logged failed and sent again by its step's job, brought
 * back by the queue, until it is sent or has had MAX_PAGE_ATTEMPTS; a page claimed by a job that
 * died before sending (a crash, a killed Lambda) is sent by the job's next delivery once the claim
 * counts as abandoned. Over generated refusals, every page ends sent exactly once or failed after
 * its last attempt, and the climb goes on either way.
 */

const { h, smtp, mailedSince, until } = pagingFlowHarness();

const MINUTE = 60_000;
const pagesOf = async (incidentId: string): Promise<{ user_id: string; outcome: string; error: string }[]> =>
  (await h.call('GET', `/v1/incidents/${incidentId}`, undefined, 200)).timeline.filter(
    (e: { type: string }) => e.type === 'page',
  );

/** Two people, a step each, 5 minutes apart; no repeat. */
async function twoSteps() {
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
  return { a, b, policyId };
}

describe('a page that did not arrive', () => {
  it('is sent again after a refused send, and arrives once', async () => {
    const { a, b } = await twoSteps();
    const mark = smtp().received.length;
    const start = h.time.clock.now();
    smtp().refuseNext(1, { code: 451, message: 'Try again later' });
    const { incidentId } = await downEntity(h);
    await until(start, 30_000);
    expect(mailedSince(mark)).toEqual([a.email]);
    await until(start, 6 * MINUTE);
    expect(mailedSince(mark)).toEqual([a.email, b.email]);
    expect((await pagesOf(incidentId)).map((p) => `${p.user_id}:${p.outcome}`)).toEqual([
      `${a.id}:sent`,
      `${b.id}:sent`,
    ]);
  });

  it(`is logged failed after ${MAX_PAGE_ATTEMPTS} refused sends, and the climb goes on`, async () => {
    const { a, b } = await twoSteps();
    const mark = smtp().received.length;
    const start = h.time.clock.now();
    smtp().refuseNext(MAX_PAGE_ATTEMPTS, { code: 451, message: 'Try again later' });
    const { incidentId } = await downEntity(h);
    await until(start, 2 * MINUTE);
    expect(mailedSince(mark)).toEqual([]);
    await until(start, 6 * MINUTE);
    expect(mailedSince(mark)).toEqual([b.email]);
    const pages = await pagesOf(incidentId);
    expect(pages.map((p) => `${p.user_id}:${p.outcome}`)).toEqual([`${a.id}:failed`, `${b.id}:sent`]);
    expect(pages[0]?.error).toContain('451');
  });

  it('is sent by the next delivery of a job that died after claiming it, once the claim is abandoned', async () => {
    const { a, b, policyId } = await twoSteps();
    const mark = smtp().received.length;
    const start = h.time.clock.now();
    const { incidentId } = await downEntity(h);
    await until(start, 4 * MINUTE + 30_000);
    expect(mailedSince(mark)).toEqual([a.email]);
    // Step 1's page to ben, claimed 30 s before it is due by a job that then died.
    const incident = { tenant_id: h.tenantId, id: incidentId };
    const claimed = newPage(
      {
        event: {} as never,
        incident: incident as never,
        policy: { id: policyId, name: 'Ladder' },
        round: 0,
        step: 1,
      },
      `u:${b.id}:${b.methodId}:0`,
      {
        target: { type: 'user', id: b.id },
        user_id: b.id,
        channel_id: null,
        contact_method_id: b.methodId,
        contact_kind: 'email',
      },
      h.time.clock.now(),
    );
    expect(await takePage(h.table, claimed, h.time.clock.now())).toEqual({ taken: true, attempt: 1 });
    // Due at 5 min: the claim is 30 s old, not yet abandoned; the job comes back when it would be.
    await until(start, 6 * MINUTE);
    expect(mailedSince(mark)).toEqual([a.email]);
    await until(start, 7 * MINUTE);
    expect(mailedSince(mark)).toEqual([a.email, b.email]);
    await until(start, 20 * MINUTE);
    expect(mailedSince(mark)).toEqual([a.email, b.email]);
    expect((await pagesOf(incidentId)).map((p) => `${p.user_id}:${p.outcome}`)).toEqual([
      `${a.id}:sent`,
      `${b.id}:sent`,
    ]);
  });

  it('ends, over generated refusals, sent exactly once or failed after its last attempt, every step paged', async () => {
    const seed = Date.now() % 2 ** 31;
    console.log(`page retries property seed: ${seed}`);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: MAX_PAGE_ATTEMPTS + 1 }), { minLength: 1, maxLength: 3 }),
        async (refusals) => {
          run += 1;
          const people = await pageablePeople(
            h,
            refusals.map((_, i) => `r${run}s${i}`),
          );
          const fixture = await entityOnLadder(
            h,
            run,
            people.map((p) => ({ userId: p.id, delaySeconds: 300 })),
            0,
          );
          const mark = smtp().received.length;
          const start = h.time.clock.now();
          // Each step's sends are refused as generated (a step's refusals are set just before it is due).
          const expected: string[] = [];
          const outcomes: string[] = [];
          for (const [step, refused] of refusals.entries()) {
            if (refused > 0) smtp().refuseNext(refused, { code: 451, message: 'Try again later' });
            if (step === 0) await h.result(fixture.checkId, false);
            await until(start, step * 5 * MINUTE + 2 * MINUTE);
            smtp().refuseNext(0);
            const arrives = refused < MAX_PAGE_ATTEMPTS;
            if (arrives) expected.push(people[step]?.email ?? '');
            outcomes.push(`${people[step]?.id}:${arrives ? 'sent' : 'failed'}`);
          }
          await until(start, refusals.length * 5 * MINUTE + 10 * MINUTE);
          expect(mailedSince(mark)).toEqual(expected);
          const { incidents } = await h.app.incidents.list(
            { tenantId: h.tenantId, userId: 'usr_test' },
            { limit: 10, entity_id: fixture.entityId, state: 'open' },
          );
          const pages = await pagesOf(String(incidents[0]?.id));
          expect(pages.map((p) => `${p.user_id}:${p.outcome}`)).toEqual(outcomes);
        },
      ),
      { seed, numRuns: 4 },
    );
  }, 240_000);
});

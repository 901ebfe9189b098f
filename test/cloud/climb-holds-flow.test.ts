import { describe, expect, it } from 'vitest';
import { isoTime } from '../../lib/platform/clock.ts';
import { pageablePeople, policyOfSteps } from '../escalation/support.ts';
import { entityWithPushCheck } from '../support/push-fixtures.ts';
import { climbRig } from './climb-rig.ts';

/**
 * What holds an escalation policy's climb (lib/escalation/climb-hold.ts) on the cloud runtime's
 * Lambda handlers (test/cloud/climb-rig.ts): a maintenance window covering the entity holds the
 * first step until the window ends, then the climb goes on from there; a silenced check ends the
 * climb with nobody paged. The local runtime's cases: test/escalation/climb-holds.test.ts.
 */

const MINUTE = 60_000;
const { clock, flow, call, ses, settle, climbTo, mailedSince } = climbRig();

/** Two people, a policy paging A then B 5 minutes later (no repeat) for `slug`'s entity, whose check is up. */
async function ladder(slug: string) {
  const [a, b] = await pageablePeople({ table: flow.h.table, tenantId: flow.h.tenantId, time: { clock } }, [
    `${slug}-ana`,
    `${slug}-ben`,
  ]);
  if (!a || !b) throw new Error('people');
  const { entityId, checkId } = await entityWithPushCheck(call, { slug, name: `${slug} service` });
  const steps = [
    { userId: a.id, delaySeconds: 300 },
    { userId: b.id, delaySeconds: 300 },
  ];
  await policyOfSteps(flow, steps, 0, [entityId]);
  await flow.push(checkId, true);
  clock.advance(1000);
  return { a, b, entityId, checkId };
}

describe('a climb held on the cloud runtime', () => {
  it('pages nobody during a maintenance window and climbs from its end while the incident is open', async () => {
    const { a, b, entityId, checkId } = await ladder('web');
    const start = clock.now();
    await call('POST', '/v1/maintenance', {
      name: 'Deploy',
      entity_ids: [entityId],
      starts_at: isoTime(start),
      ends_at: isoTime(start + 30 * MINUTE),
    });
    const mark = ses.mails().length;
    await flow.push(checkId, false);
    await settle();
    await climbTo(start + 29 * MINUTE);
    expect(mailedSince(mark)).toEqual([]);
    await climbTo(start + 30 * MINUTE + 30_000);
    expect(mailedSince(mark)).toEqual([a.email]);
    await climbTo(start + 35 * MINUTE + 30_000);
    expect(mailedSince(mark)).toEqual([a.email, b.email]);
    await climbTo(start + 90 * MINUTE);
    expect(mailedSince(mark)).toEqual([a.email, b.email]);
  });

  it('pages nobody for a silenced check, and stays ended when the silence is lifted', async () => {
    const { checkId } = await ladder('db');
    await call('POST', `/v1/checks/${checkId}/policy`, { silenced: true });
    const start = clock.now();
    const mark = ses.mails().length;
    await flow.push(checkId, false);
    await settle();
    await climbTo(start + 20 * MINUTE);
    expect(mailedSince(mark)).toEqual([]);
    await call('POST', `/v1/checks/${checkId}/policy`, { silenced: false });
    await climbTo(start + 60 * MINUTE);
    expect(mailedSince(mark)).toEqual([]);
  });
});

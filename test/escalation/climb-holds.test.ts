import { describe, expect, it } from 'vitest';
import { deployWindow } from '../notify/support/flow-harness.ts';
import { pageablePeople, pagingFlowHarness, policyOfSteps } from './support.ts';

/**
 * What holds an escalation policy's climb (lib/escalation/climb-hold.ts), on the local runtime's
 * real notification flow on fake time, people paged by e-mail through a real SMTP server: a
 * maintenance window covering the entity holds each step that comes during it until the window
 * ends, then the climb goes on from that step if the incident is still open; a recovery during the
 * window ends it with nobody paged; a silenced check ends the climb with nobody paged. The same
 * cases on the cloud runtime: test/cloud/climb-holds-flow.test.ts.
 */

const { h, smtp, mailedSince, until } = pagingFlowHarness();

const MINUTE = 60_000;

/** Two people, a policy paging A then B 5 minutes later (no repeat), and an entity whose check is up. */
async function ladder() {
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
  const { entityId, checkId } = await h.entityWithCheck('API');
  await h.policy(checkId, { cooldown_seconds: 0 });
  await h.result(checkId, true);
  return { a, b, entityId, checkId };
}

describe('a climb held by a maintenance window', () => {
  it('pages nobody during the window and climbs from its end when the incident is still open', async () => {
    const { a, b, entityId, checkId } = await ladder();
    await deployWindow(h, entityId, 30);
    const mark = smtp().received.length;
    const start = h.time.clock.now();
    await h.result(checkId, false);
    await until(start, 29 * MINUTE);
    expect(mailedSince(mark)).toEqual([]);
    // The window ends at 30 min: the first step then, the second 5 minutes after it.
    await until(start, 30 * MINUTE + 30_000);
    expect(mailedSince(mark)).toEqual([a.email]);
    await until(start, 34 * MINUTE + 30_000);
    expect(mailedSince(mark)).toEqual([a.email]);
    await until(start, 35 * MINUTE + 30_000);
    expect(mailedSince(mark)).toEqual([a.email, b.email]);
    await until(start, 90 * MINUTE);
    expect(mailedSince(mark)).toEqual([a.email, b.email]);
  });

  it('holds a step that falls due inside a window opened mid-climb until the window ends', async () => {
    const { a, b, entityId, checkId } = await ladder();
    const mark = smtp().received.length;
    const start = h.time.clock.now();
    await h.result(checkId, false);
    await until(start, MINUTE);
    expect(mailedSince(mark)).toEqual([a.email]);
    await deployWindow(h, entityId, 20);
    await until(start, 20 * MINUTE);
    expect(mailedSince(mark)).toEqual([a.email]);
    await until(start, 21 * MINUTE + 30_000);
    expect(mailedSince(mark)).toEqual([a.email, b.email]);
  });

  it('ends with nobody paged when the entity recovers during the window', async () => {
    const { entityId, checkId } = await ladder();
    await deployWindow(h, entityId, 30);
    const mark = smtp().received.length;
    const start = h.time.clock.now();
    await h.result(checkId, false);
    await until(start, 10 * MINUTE);
    await h.result(checkId, true);
    await until(start, 90 * MINUTE);
    expect(mailedSince(mark)).toEqual([]);
  });
});

describe('a climb of a silenced check', () => {
  it('pages nobody, and stays ended when the silence is lifted (as the check’s escalations do)', async () => {
    const { checkId } = await ladder();
    await h.policy(checkId, { cooldown_seconds: 0, silenced: true });
    const mark = smtp().received.length;
    const start = h.time.clock.now();
    await h.result(checkId, false);
    await until(start, 20 * MINUTE);
    expect(mailedSince(mark)).toEqual([]);
    await h.policy(checkId, { cooldown_seconds: 0, silenced: false });
    await until(start, 60 * MINUTE);
    expect(mailedSince(mark)).toEqual([]);
  });
});

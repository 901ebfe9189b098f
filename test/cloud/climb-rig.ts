import { afterAll } from 'vitest';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { sesOutbox } from '../support/ses-outbox.ts';
import { notifyFlowRig } from './notify-flow.ts';
import { dueJobRequeuer } from './queue-kinds.ts';

/**
 * The cloud runtime's notify flow for escalation climbs (test/cloud/policy-climb-flow.test.ts,
 * climb-holds-flow.test.ts): the api, stream function and notifier Lambda handlers over DynamoDB
 * Local and fauxqs on a fake clock, people paged by e-mail through the SES transport (its client
 * captured). Each step is a `climb` job delayed until it is due; fauxqs delays in real time, so once
 * the fake clock passes a job's due time it is sent again with no delay (`dueJobRequeuer`), as the
 * queue does when the delay ends. Call at a file's top level (it registers its hooks).
 */
export function climbRig(t0 = Date.parse('2026-03-02T09:00:00.000Z')) {
  const clock = createFakeClock(t0);
  const flow = notifyFlowRig(clock, {
    blueprint: { slug: 'svc', name: 'Service' },
    env: {
      VIGIL_EMAIL_FROM: 'Vigil <pages@vigil.example.com>',
      VIGIL_PUBLIC_URL: 'https://vigil.example.com',
    },
  });
  const ses = sesOutbox();
  afterAll(() => ses.restore());

  let requeuer: ReturnType<typeof dueJobRequeuer> | undefined;
  /** Runs the change feed, the notify jobs visible and those due by the fake clock until nothing moves. */
  async function settle() {
    requeuer ??= dueJobRequeuer(flow.h, clock.now);
    for (let round = 0; round < 30; round += 1) {
      await flow.h.drainChanges();
      if ((await requeuer.requeueDue()) === 0) return;
    }
    throw new Error('the change feed and the notify queue did not settle after 30 rounds');
  }

  /** Moves the fake clock to `ms`, at most 15 minutes (one queue delay) at a time, settling at each. */
  async function climbTo(ms: number) {
    while (clock.now() < ms) {
      clock.advance(Math.min(ms - clock.now(), 15 * 60_000));
      await settle();
    }
  }

  /** Whom SES was asked to mail since `from` (an index into its sends), in order. */
  const mailedSince = (from: number) =>
    ses
      .mails()
      .slice(from)
      .map((m) => m.to.join(','));

  return { clock, flow, call: flow.call, ses, settle, climbTo, mailedSince };
}

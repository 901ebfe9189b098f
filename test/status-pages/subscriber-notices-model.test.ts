import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../lib/platform/clock.ts';
import type { ApiHarness } from '../support/api-harness.ts';
import { linkIn, type SubscriberRuntime, subscriberRuntimes } from './support/subscriber-runtimes.ts';

/**
 * The notices' invariant on both runtimes, over generated sequences of subscribe, confirm (by the
 * emailed link), one-click unsubscribe (by a notice's List-Unsubscribe URL), incident updates with
 * `notify`, redeliveries of a past update's notice job and the clock moving on: each address that
 * was confirmed when an update was posted, and whose components the incident impacts, gets
 * exactly one notice of it; nobody else gets any. Each run has a page of its own. The seed is
 * printed; replay one with `VIGIL_MODEL_SEED=<seed> npm exec -- vitest run <this file>`.
 */

const T0 = Date.parse('2026-08-01T09:00:00.000Z');
const ADDRESSES = 4;

type Op =
  | { op: 'subscribe'; who: number }
  | { op: 'confirm'; who: number }
  | { op: 'unsubscribe'; who: number }
  | { op: 'update'; entity: 0 | 1 }
  | { op: 'redeliver'; which: number }
  | { op: 'later'; minutes: number };

const who = fc.integer({ min: 0, max: ADDRESSES - 1 });
const ops = fc.array(
  fc.oneof(
    { weight: 3, arbitrary: who.map((w): Op => ({ op: 'subscribe', who: w })) },
    { weight: 3, arbitrary: who.map((w): Op => ({ op: 'confirm', who: w })) },
    { weight: 1, arbitrary: who.map((w): Op => ({ op: 'unsubscribe', who: w })) },
    { weight: 2, arbitrary: fc.constantFrom<0 | 1>(0, 1).map((e): Op => ({ op: 'update', entity: e })) },
    { weight: 1, arbitrary: fc.nat(20).map((n): Op => ({ op: 'redeliver', which: n })) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 90 }).map((m): Op => ({ op: 'later', minutes: m })) },
  ),
  { minLength: 4, maxLength: 14 },
);

describe.each(subscriberRuntimes)('the notices’ invariant ($runtime runtime)', ({ runtime, start }) => {
  let rt: SubscriberRuntime;
  let api: ApiHarness;
  const clock = createFakeClock(T0);
  let entities: [string, string];
  let runNo = 0;
  const req = async (method: string, path: string, body?: unknown) => {
    const res = await api.request(method, path, { key: api.adminKey, body });
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
    return res.body;
  };
  const settle = async () => {
    await api.drainChanges();
    await api.runNotifyJobs();
    await api.drainChanges();
    await api.runNotifyJobs();
  };

  beforeAll(async () => {
    rt = await start(clock);
    api = rt.api;
    // Every run's mail counts against the tenant's daily email quota (200 by default): room for all.
    await api.operator(['tenant', 'limits', api.tenantId, '--email-daily-limit', '100000']);
    await req('POST', '/v1/blueprints', { slug: 'svc', name: 'Service' });
    const a = await req('POST', '/v1/blueprints/svc/entities', { slug: 'a', name: 'A' });
    const b = await req('POST', '/v1/blueprints/svc/entities', { slug: 'b', name: 'B' });
    entities = [a.id, b.id];
  }, 60_000);
  afterAll(async () => {
    await rt?.close();
  });

  /** Runs one sequence on a page of its own; answers what broke, or undefined. */
  async function run(sequence: Op[]): Promise<string | undefined> {
    runNo += 1;
    const slug = `model-${runtime}-${runNo}`;
    await req('POST', '/v1/status-pages', { slug, title: slug, entity_ids: entities });
    const address = (w: number) => `m${w}-${runNo}@example.com`;
    // Fixed per address: the first two take all, the others one entity each.
    const components = (w: number) => (w < 2 ? 'all' : [entities[w - 2] ?? '']);
    const confirmed = new Set<number>();
    const updates: { title: string; expected: Set<string>; job: Record<string, unknown> }[] = [];
    const mailsOf = (w: number) => rt.mails().filter((m) => m.to.includes(address(w)));
    for (const [n, step] of sequence.entries()) {
      // Time moves between two requests (a confirmation and an update in the same millisecond are
      // not ordered: the notice compares confirmed_at with the update's time).
      clock.advance(1);
      if (step.op === 'subscribe') {
        const res = await api.request('POST', `/p/${slug}/subscribe`, {
          body: { email: address(step.who), components: components(step.who) },
        });
        if (res.status !== 202) return `step ${n}: subscribe answered ${res.status}`;
      } else if (step.op === 'confirm') {
        const mail = mailsOf(step.who).findLast((m) => m.subject.startsWith('Confirm updates'));
        if (mail) {
          const res = await api.request('POST', linkIn(mail.text, `/p/${slug}/confirm/`), { rawBody: '' });
          if (res.status === 200) confirmed.add(step.who);
        }
      } else if (step.op === 'unsubscribe') {
        const url = mailsOf(step.who)
          .findLast((m) => m.headers.has('list-unsubscribe'))
          ?.headers.get('list-unsubscribe')
          ?.slice(1, -1);
        if (url) {
          const res = await api.request('POST', new URL(url).pathname, {
            rawBody: 'List-Unsubscribe=One-Click',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
          });
          if (res.status !== 200) return `step ${n}: one-click unsubscribe answered ${res.status}`;
          confirmed.delete(step.who);
        }
      } else if (step.op === 'update') {
        const title = `Incident ${updates.length + 1}`;
        const entity = entities[step.entity];
        const incident = await req('POST', `/v1/status-pages/${slug}/incidents`, {
          title,
          body: 'Looking into it.',
          impact: [{ entity_id: entity, level: 'major_outage' }],
          notify: true,
        });
        const expected = new Set(
          [...confirmed].filter((w) => w < 2 || w - 2 === step.entity).map((w) => address(w)),
        );
        const update = incident.updates[0];
        updates.push({
          title,
          expected,
          job: {
            kind: 'page_notice',
            tenant_id: api.tenantId,
            page: slug,
            incident_id: incident.id,
            update_id: update.id,
            after: null,
          },
        });
      } else if (step.op === 'redeliver') {
        const past = updates[step.which % Math.max(updates.length, 1)];
        if (past)
          await api.app.notifyQueue.enqueue([
            { id: `pgn:${String(past.job.update_id)}`, body: past.job as never },
          ]);
      } else {
        clock.advance(step.minutes * 60_000);
      }
      await settle();
    }
    for (const u of updates) {
      const got = rt
        .mails()
        .filter((m) => m.subject === `[${slug}] ${u.title}: Investigating`)
        .map((m) => m.to[0] ?? '');
      const want = [...u.expected].sort();
      if (JSON.stringify([...got].sort()) !== JSON.stringify(want))
        return `${u.title}: told ${JSON.stringify(got.sort())}, expected each of ${JSON.stringify(want)} once`;
    }
    return undefined;
  }

  it('tells each address confirmed at an update’s time, and impacted, exactly once; nobody else', async () => {
    const seed = process.env.VIGIL_MODEL_SEED ? Number(process.env.VIGIL_MODEL_SEED) : Date.now() % 2 ** 31;
    const numRuns = Number(process.env.VIGIL_MODEL_RUNS ?? (runtime === 'local' ? 12 : 5));
    console.log(`subscriber notices (${runtime}): seed ${seed}, ${numRuns} sequences`);
    const details = await fc.check(
      fc.asyncProperty(ops, async (sequence) => {
        const broken = await run(sequence);
        if (broken) throw new Error(broken);
      }),
      { seed, numRuns, endOnFailure: true },
    );
    expect(
      details.failed
        ? `broken (seed ${details.seed}, path "${details.counterexamplePath}"): ${JSON.stringify(details.counterexample)}\n${String(details.errorInstance)}`
        : 'held',
    ).toBe('held');
  }, 600_000);
});

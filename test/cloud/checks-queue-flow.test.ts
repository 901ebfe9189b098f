import { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type LambdaHarness, startLambdaHarness } from '../support/api-harness.ts';
import { startStatusServer } from '../support/status-server.ts';
import { workerJobOf } from './cell-support.ts';

/**
 * The pull-check path of the cloud runtime through a real SQS engine: the api handler creates the
 * check, the generator handler enqueues its cell's slot jobs on the probe queue (fauxqs, shaped like
 * infra/checks.ts: visibility, redrive after maxReceiveCount), the worker handler receives them
 * through the event-source poller (batch size 1) once their DelaySeconds has passed, probes a
 * loopback server and records the results in DynamoDB Local. fauxqs keeps time with Date.now() in
 * this process, so the fake Date moves the generator, the delays and the retries together.
 */

let h: LambdaHarness;
let server: Awaited<ReturnType<typeof startStatusServer>>;
let checkId: string;

beforeAll(async () => {
  server = await startStatusServer(200);
  h = await startLambdaHarness({ env: { VIGIL_ALLOW_PRIVATE_TARGETS: 'true' } });
  const call = async (path: string, body: unknown) => {
    const res = await h.request('POST', path, { key: h.adminKey, body });
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${res.text}`);
    return res.body;
  };
  await call('/v1/blueprints', { slug: 'web', name: 'Web' });
  const entity = await call('/v1/blueprints/web/entities', { slug: 'site', name: 'site' });
  const check = await call('/v1/checks', {
    entity_id: entity.id,
    check_type: 'http',
    target_url: server.url,
    interval_seconds: 60,
    failure_threshold: 1,
  });
  checkId = String(check.id);
  // From the next minute on, the whole file runs on one fake Date, fauxqs's clock and the app's.
  vi.useFakeTimers({ toFake: ['Date'], now: Math.ceil(Date.now() / 60_000) * 60_000 });
}, 60_000);

afterAll(async () => {
  vi.useRealTimers();
  await h?.close();
  await server?.close();
});

const step = (ms: number) => vi.setSystemTime(Date.now() + ms);
const results = async () =>
  (await h.request('GET', `/v1/checks/${checkId}/results`, { key: h.adminKey })).body.results as {
    success: boolean;
  }[];
const probeInvocations = () => h.eventSources.probe.invocations;

describe('pull checks through the probe queue (generator -> SQS -> worker)', () => {
  it('probes each slot once its delay has passed, and records its result', async () => {
    const minute = Date.now();

    const counts = await h.runGenerator(minute);
    const sent = h.probeSqs.sentBodies().map(workerJobOf);
    await h.runProbeJobs();
    const beforeDelay = server.hits();
    // The window and its lookahead (lib/cloud/workers/generator.ts).
    step(70_000);
    await h.runProbeJobs();

    expect(counts.cell_slots).toBeGreaterThan(0);
    expect(sent.length).toBe(counts.cell_slots);
    expect(sent.every((j) => j.kind === 'cell' && j.slot_ms >= minute && j.slot_ms < minute + 70_000)).toBe(
      true,
    );
    // A slot after the generator's run is delayed to it: not visible before.
    const laterSlots = sent.filter((j) => j.kind === 'cell' && j.slot_ms > minute).length;
    expect(beforeDelay).toBe(sent.length - laterSlots);
    expect(server.hits()).toBe(sent.length);
    expect(probeInvocations().every((i) => i.event.Records.length === 1 && i.failed.length === 0)).toBe(true);
    expect(await results()).toHaveLength(sent.length);
    expect(h.probeSqs.size()).toBe(0);
  });

  it('records one result when SQS delivers the same probe job again', async () => {
    const [body] = h.probeSqs.sentBodies().slice(-1);
    const before = await results();

    await h.sqs.sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: h.probeSqs.url,
        Entries: [{ Id: 'again', MessageBody: body }],
      }),
    );
    await h.runProbeJobs();

    expect(probeInvocations().at(-1)?.failed).toEqual([]);
    // The slot's result is written once (a conditional write); the probe itself may run again.
    expect(await results()).toEqual(before);
    expect(h.probeSqs.size()).toBe(0);
  });

  it('retries a failing record after 1 s, 2 s and 4 s, then the redrive moves it to the probe DLQ', async () => {
    const broken = JSON.stringify({ id: 'not-a-probe-job', body: { kind: 'cell' } });
    await h.sqs.sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: h.probeSqs.url,
        Entries: [{ Id: 'bad', MessageBody: broken }],
      }),
    );
    const receives: string[] = [];
    const pollNow = async () => {
      const invocation = await h.eventSources.probe.pollOnce();
      for (const r of invocation?.event.Records ?? []) receives.push(r.attributes.ApproximateReceiveCount);
      return invocation;
    };

    expect((await pollNow())?.failed).toHaveLength(1);
    for (const wait of [1000, 2000, 4000]) {
      step(wait - 10);
      expect(await pollNow()).toBeUndefined();
      step(10);
      expect((await pollNow())?.failed).toHaveLength(1);
    }
    expect(await pollNow()).toBeUndefined();

    expect(receives).toEqual(['1', '2', '3', '4']);
    expect(h.probeSqs.deadLetterBodies()).toEqual([broken]);
    expect(h.probeSqs.size()).toBe(0);
  });
});

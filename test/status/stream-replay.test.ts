import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { positionAt } from '../../lib/status/stream-events.ts';
import type { SseConnection } from './stream-client.ts';
import { type StreamDriver, streamRuntimes } from './stream-drivers.ts';
import { secondsApart, seedTransitions } from './transition-seed.ts';

// functions/status-stream.ts builds its module-scope handler from the Lambda runtime's global.
vi.hoisted(() => {
  Object.assign(globalThis, {
    awslambda: {
      streamifyResponse: (handler: unknown) => handler,
      HttpResponseStream: { from: (stream: unknown) => stream },
    },
  });
});

const HOUR = 3600_000;

describe.each(streamRuntimes)('the status stream replay on resume ($runtime runtime)', ({ start }) => {
  let d: StreamDriver;
  /** 1,200 transitions of the last hour, oldest first. */
  let recent: string[];
  const streams: SseConnection[] = [];

  const open = async (lastEventId: string, key = d.adminKey) => {
    const stream = await d.open({ authorization: `Bearer ${key}`, 'last-event-id': lastEventId });
    streams.push(stream);
    expect(stream.status).toBe(200);
    return stream;
  };
  const ids = (stream: SseConnection) => stream.stateChanges().map((e) => e.transition_id);
  const resets = (stream: SseConnection) => stream.events.filter((e) => e.event === 'reset');

  beforeAll(async () => {
    d = await start({ env: { VIGIL_STREAMS_PER_KEY: '0', VIGIL_STREAMS_PER_TENANT: '0' } });
    recent = await seedTransitions(d.table, d.tenantId, secondsApart(1200, HOUR));
    // Locally the seeded writes also pass the change feed; let it settle before streams open.
    await d.drainChanges();
  }, 300_000);
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await d.close();
  });

  it('replays only the newest 1,000 transitions after a reset event when the client is further back', async () => {
    const stream = await open(positionAt(Date.now() - 2 * HOUR));
    await stream.until(() => ids(stream).length === 1000, 20_000);

    expect(stream.events[0]).toMatchObject({ event: 'reset', id: recent[199] });
    expect(JSON.parse(stream.events[0]?.data ?? '')).toEqual({
      reason: 'replay_limit',
      resume_from: recent[199],
    });
    expect(ids(stream)).toEqual(recent.slice(200));
    expect(resets(stream)).toHaveLength(1);
  });

  it('replays everything without a reset when at most 1,000 transitions follow the Last-Event-ID', async () => {
    const stream = await open(recent[199] ?? '');
    await stream.until(() => ids(stream).length === 1000, 20_000);

    expect(resets(stream)).toEqual([]);
    expect(ids(stream)).toEqual(recent.slice(200));
  });

  it('replays nothing older than 24 hours', async () => {
    const other = await d.app.tenants.createTenant({ name: 'Older', email: 'older@example.test' });
    const old = await seedTransitions(d.table, other.tenant.id, secondsApart(3, 25 * HOUR));
    const fresh = await seedTransitions(d.table, other.tenant.id, secondsApart(2, HOUR));
    await d.drainChanges();

    const fromTheStart = await open(positionAt(Date.now() - 30 * HOUR), other.rawKey);
    await fromTheStart.until(() => ids(fromTheStart).length === 2, 10_000);
    // Resuming at the newest of the old ones leaves nothing out: no reset.
    const fromTheLastOld = await open(old[2] ?? '', other.rawKey);
    await fromTheLastOld.until(() => ids(fromTheLastOld).length === 2, 10_000);

    expect(fromTheStart.events[0]?.event).toBe('reset');
    const resumeFrom = JSON.parse(fromTheStart.events[0]?.data ?? '').resume_from as string;
    expect(resumeFrom > (old[2] ?? '') && resumeFrom < (fresh[0] ?? '')).toBe(true);
    expect(ids(fromTheStart)).toEqual(fresh);
    expect(resets(fromTheLastOld)).toEqual([]);
    expect(ids(fromTheLastOld)).toEqual(fresh);
  });

  it('answers /healthz while many streams replay, and every replay completes', async () => {
    const replaying = await Promise.all(
      Array.from({ length: 10 }, () => open(positionAt(Date.now() - 2 * HOUR))),
    );
    const health = await d.api('GET', '/healthz', d.adminKey);
    const doneWhenHealthy = replaying.filter((s) => ids(s).length === 1000).length;
    // A replay reads the tenant's 16 transition shards merged: bounded generously, a busy machine is slow.
    for (const stream of replaying) await stream.until(() => ids(stream).length === 1000, 90_000);

    expect(health).toEqual({ status: 200, body: { status: 'ok' } });
    // /healthz was answered between replay chunks, not after all of them.
    expect(doneWhenHealthy).toBeLessThan(replaying.length);
  }, 150_000);
});

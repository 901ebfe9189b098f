import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SseConnection } from './stream-client.ts';
import { type StreamDriver, streamRuntimes } from './stream-drivers.ts';

// functions/status-stream.ts builds its module-scope handler from the Lambda runtime's global.
vi.hoisted(() => {
  Object.assign(globalThis, {
    awslambda: {
      streamifyResponse: (handler: unknown) => handler,
      HttpResponseStream: { from: (stream: unknown) => stream },
    },
  });
});

const TRANSITION_ID = /^trn_[0-9A-HJKMNP-TV-Z]{26}$/;

describe.each(streamRuntimes)('GET /v1/status/stream ($runtime runtime)', ({ start }) => {
  let d: StreamDriver;
  let entityId: string;
  let checkId: string;
  const streams: SseConnection[] = [];

  const open = async (headers: Record<string, string> = {}, key = d.adminKey) => {
    const stream = await d.open({ authorization: `Bearer ${key}`, ...headers });
    streams.push(stream);
    return stream;
  };
  /** A pushed result; with failure_threshold 1 every change of `success` moves the entity. */
  const push = async (success: boolean, check = checkId, key = d.adminKey) => {
    const res = await d.api('POST', `/v1/checks/${check}/results`, key, { success, latency_ms: 3 });
    expect(res.status).toBe(201);
  };
  const newPushCheck = async (key: string, slug: string) => {
    await d.api('POST', '/v1/blueprints', key, { slug: 'job', name: 'Job' });
    const entity = await d.api('POST', '/v1/blueprints/job/entities', key, { slug, name: `Job ${slug}` });
    expect(entity.status).toBe(201);
    const check = await d.api('POST', '/v1/checks', key, {
      entity_id: entity.body.id,
      check_type: 'push',
      failure_threshold: 1,
    });
    expect(check.status).toBe(201);
    return { entityId: entity.body.id as string, checkId: check.body.id as string };
  };
  const tenantTransitionIds = async () => {
    const res = await d.api('GET', '/v1/status/transitions?limit=200', d.adminKey);
    return (res.body.transitions as { id: string }[]).map((t) => t.id).reverse();
  };

  beforeAll(async () => {
    d = await start({ heartbeatMs: 150 });
    ({ entityId, checkId } = await newPushCheck(d.adminKey, 'nightly'));
  });
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await d.close();
  });

  it('answers 200 text/event-stream at once and names its starting position', async () => {
    const stream = await open();
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers.get('cache-control')).toBe('no-cache');
    expect(stream.headers.get('content-length')).toBeNull();
    await stream.until(() => stream.events.length > 0);
    expect(stream.events[0]).toMatchObject({ event: 'position', id: expect.stringMatching(TRANSITION_ID) });
    stream.close();
  });

  it('sends the state change a result caused to the open stream', async () => {
    const stream = await open();
    await stream.until(() => stream.events.length > 0);
    await push(false);
    // Waited for with a bound, not timed: how soon it comes depends on how busy the machine is.
    await stream.until(() => stream.stateChanges().length === 1);
    const event = stream.events.find((e) => e.event === 'state_change');
    expect(JSON.parse(event?.data ?? '')).toEqual({
      entity_id: entityId,
      entity_name: 'Job nightly',
      check_id: checkId,
      tenant_id: d.tenantId,
      from_state: 'unknown',
      to_state: 'down',
      transition_id: event?.id,
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(event?.id).toMatch(TRANSITION_ID);
    stream.close();
  });

  it('resumes after Last-Event-ID: nothing lost, nothing repeated', async () => {
    const first = await open();
    await first.until(() => first.events.length > 0);
    await push(true);
    await first.until(() => first.stateChanges().length === 1);
    const resumeFrom = first.lastEventId() ?? '';
    first.close();

    // While no stream is open: two more changes.
    await push(false);
    await push(true);

    const second = await open({ 'last-event-id': resumeFrom });
    await second.until(() => second.stateChanges().length === 2);
    await push(false);
    await second.until(() => second.stateChanges().length === 3);

    const seen = [...first.stateChanges(), ...second.stateChanges()].map((e) => e.transition_id);
    expect(new Set(seen).size).toBe(seen.length);
    expect(second.stateChanges().map((e) => `${e.from_state}->${e.to_state}`)).toEqual([
      'up->down',
      'down->up',
      'up->down',
    ]);
    // Every transition of the tenant after the first stream's one, in order.
    const all = await tenantTransitionIds();
    expect(seen).toEqual(all.slice(all.indexOf(seen[0] ?? '')));
    second.close();
  });

  it('resumes from the position it named even when no event came before the drop', async () => {
    const first = await open();
    await first.until(() => first.events.length > 0);
    const position = first.lastEventId() ?? '';
    first.close();
    await push(true);
    const second = await open({ 'last-event-id': position });
    await second.until(() => second.stateChanges().length === 1);
    expect(second.stateChanges()[0]).toMatchObject({ to_state: 'up' });
    second.close();
  });

  it('sends a keep-alive comment on the heartbeat interval', async () => {
    const stream = await open();
    await stream.until(() => stream.comments.filter((c) => c === 'keep-alive').length >= 2);
    stream.close();
  });

  it('lets a read-only key follow the stream', async () => {
    const created = await d.api('POST', '/v1/auth/keys', d.adminKey, {
      label: 'dashboard',
      is_read_only: true,
    });
    expect(created.status).toBe(201);
    const stream = await open({}, created.body.key);
    expect(stream.status).toBe(200);
    await stream.until(() => stream.events.length > 0);
    await push(false);
    await stream.until(() => stream.stateChanges().length === 1);
    stream.close();
  });

  it('answers 401 with WWW-Authenticate without a key', async () => {
    const stream = await d.open({});
    streams.push(stream);
    expect(stream.status).toBe(401);
    expect(stream.headers.get('www-authenticate')).toBe('Bearer');
    await stream.ended;
  });

  it('answers 400 VALIDATION_ERROR for a Last-Event-ID that is not a position', async () => {
    for (const bad of [
      '42',
      'trn_not-a-ulid',
      'ent_01J9Z3ZZZZZZZZZZZZZZZZZZZZ',
      'trn_7ZZZZZZZZZZZZZZZZZZZZZZZZZ',
    ]) {
      const stream = await open({ 'last-event-id': bad });
      expect(stream.status, bad).toBe(400);
      await stream.ended;
    }
  });

  it("never shows another tenant's state changes", async () => {
    const other = await d.app.tenants.createTenant({ name: 'Other', email: 'other@example.test' });
    const theirs = await newPushCheck(other.rawKey, 'theirs');
    const ours = await open();
    const their = await open({}, other.rawKey);
    await ours.until(() => ours.events.length > 0);
    await their.until(() => their.events.length > 0);
    await push(true, theirs.checkId, other.rawKey);
    await push(true);
    await ours.until(() => ours.stateChanges().length === 1);
    await their.until(() => their.stateChanges().length === 1);
    // One more of theirs after ours, so a leak would have had time to arrive.
    await push(false, theirs.checkId, other.rawKey);
    await their.until(() => their.stateChanges().length === 2);
    expect(ours.stateChanges().map((e) => e.tenant_id)).toEqual([d.tenantId]);
    expect(their.stateChanges().map((e) => e.tenant_id)).toEqual([other.tenant.id, other.tenant.id]);
    ours.close();
    their.close();
  });
});

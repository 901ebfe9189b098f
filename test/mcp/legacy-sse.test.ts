import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../lib/domain/principal.ts';
import { DEFAULT_LEGACY_STREAM, openLegacyStream } from '../../lib/mcp/legacy-sse.ts';
import { createMcpRelay, SESSION_TTL_SECONDS } from '../../lib/mcp/relay.ts';
import { getRelaySession } from '../../lib/mcp/relay-items.ts';
import { type Clock, createFakeClock, systemClock } from '../../lib/platform/clock.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import { createSqliteTable, openSqliteDatabase, type SqliteTable } from '../../lib/sqlite/sqlite-table.ts';
import { createMemoryStreamSlots } from '../../lib/streams/stream-slots.ts';

const caller: Principal = {
  tenantId: 'tnt_01J9Z3ZZZZZZZZZZZZZZZZZZZZ',
  userId: 'usr_01J9Z3ZZZZZZZZZZZZZZZZZZZZ',
  keyId: 'key_01J9Z3ZZZZZZZZZZZZZZZZZZZZ',
  role: 'admin',
  readOnly: false,
};

describe('the legacy MCP SSE stream lifetime (local runtime pieces over SQLite)', () => {
  let table: SqliteTable;
  beforeAll(() => {
    table = createSqliteTable({ db: openSqliteDatabase(':memory:') });
  });
  afterAll(() => table.close());

  const deps = (settings: Partial<typeof DEFAULT_LEGACY_STREAM>, perKey = 1, clock: Clock = systemClock) => ({
    relay: createMcpRelay({ table, clock }),
    slots: createMemoryStreamSlots({ perKey, perTenant: 0 }),
    clock,
    logger: silentLogger,
    settings: { ...DEFAULT_LEGACY_STREAM, pollMs: 20, ...settings },
  });

  it('never lives forever by default, and ends well inside its session lifetime', () => {
    expect(DEFAULT_LEGACY_STREAM.maxDurationMs).toBeGreaterThan(0);
    expect(DEFAULT_LEGACY_STREAM.maxDurationMs).toBeLessThan(SESSION_TTL_SECONDS * 1000);
    expect(DEFAULT_LEGACY_STREAM.idleMs).toBeGreaterThan(0);
  });

  /** Opens a stream and reads up to its endpoint event; `next` reads on until `ready` or the end. */
  async function openReading(d: ReturnType<typeof deps>) {
    const response = await openLegacyStream(d, caller);
    expect(response.status).toBe(200);
    const reader = (response.body as ReadableStream<Uint8Array>)
      .pipeThrough(new TextDecoderStream())
      .getReader();
    let text = '';
    let ended = false;
    const next = async (ready: (text: string) => boolean) => {
      while (!ended && !ready(text)) {
        const { value, done } = await reader.read();
        if (done) ended = true;
        else text += value;
      }
      return { text, ended };
    };
    await next((t) => t.includes('\n\n'));
    const sessionId = /sessionId=([0-9a-f-]{36})/.exec(text)?.[1] ?? '';
    return { next, sessionId, session: await d.relay.sessionOf(caller, sessionId) };
  }
  const answer = (id: number) => ({ jsonrpc: '2.0' as const, id, result: {} });
  const answered = (id: number) => (text: string) => text.includes(`"id":${id}`);

  it('ends a stream idle for idleMs with its session, and frees its slot', async () => {
    const clock = createFakeClock(Date.now());
    const d = deps({ maxDurationMs: 60_000, idleMs: 1000 }, 1, clock);
    const stream = await openReading(d);
    // While it is open, the key's one slot is taken.
    expect((await openLegacyStream(d, caller)).status).toBe(429);

    clock.advance(900);
    await d.relay.push(stream.session, [answer(1)]);
    const first = await stream.next(answered(1));
    clock.advance(1900);
    const last = await stream.next(() => false);

    expect(first.ended).toBe(false);
    expect(last.ended).toBe(true);
    expect(await getRelaySession(table, stream.sessionId)).toBeUndefined();
    const again = await openLegacyStream(d, caller);
    expect(again.status).toBe(200);
    await again.body?.cancel();
  });

  it('keeps a stream that delivers answers open past idleMs, until maxDurationMs', async () => {
    const clock = createFakeClock(Date.now());
    const d = deps({ maxDurationMs: 2000, idleMs: 1000 }, 1, clock);
    const stream = await openReading(d);

    clock.advance(900);
    await d.relay.push(stream.session, [answer(1)]);
    await stream.next(answered(1));
    clock.advance(900);
    await d.relay.push(stream.session, [answer(2)]);
    // 1,800 ms after it opened, 900 after its last answer: still open.
    const second = await stream.next(answered(2));
    clock.advance(300);
    const last = await stream.next(() => false);

    expect(second.ended).toBe(false);
    expect(last.ended).toBe(true);
  });

  it('answers 429 with Retry-After and a JSON-RPC error past the cap', async () => {
    const d = deps({}, 1);
    const open = await openLegacyStream(d, caller);
    const refused = await openLegacyStream(d, caller);

    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(await refused.json()).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: expect.any(Number) },
    });
    await open.body?.cancel();
  });
});

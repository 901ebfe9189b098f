import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../lib/platform/clock.ts';
import type { ProbeOutcome, Prober } from '../../lib/probes/types.ts';
import { newCheck, newEntity, quietTcpCheck } from '../checks/check-fixtures.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { probeCellSlot } from '../support/cell-fixtures.ts';
import { enableToolsets } from '../support/toolsets.ts';
import { connectSdkClient } from './sdk-client.ts';

/**
 * get_check_results at a 10 s check's rate, through the official MCP SDK client on both runtimes:
 * one hour is 360 results, and the answer stays small (50 results by default, at most 500 and
 * under 50 KB a page), with a summary of the whole window on the first page; next_cursor walks the
 * window, every result once, and stops at its start.
 */

// biome-ignore lint/suspicious/noExplicitAny: tool results are inspected freely
const data = (result: CallToolResult): any => result.structuredContent;
const bytes = (result: CallToolResult) => Buffer.byteLength(JSON.stringify(result));

const NOW = Date.parse('2026-03-01T12:00:00.000Z');
const SLOTS = 360;
/** Slot i of the last hour (10 s apart, the newest 10 s ago). */
const slotMs = (i: number) => NOW - (SLOTS - i) * 10_000;
/** What slot i answered: down every 36th (10), degraded at i % 60 === 7 (6), latency i + 1 ms. */
const outcomeOf = (i: number): Omit<ProbeOutcome, 'status_code' | 'latency_ms'> =>
  i % 36 === 5
    ? { success: false, error_message: 'connection refused' }
    : i % 60 === 7
      ? { success: true, degraded: true as const, error_message: 'latency above degraded_latency_ms' }
      : { success: true, error_message: '' };

describe.each(runtimes)('MCP get_check_results paging ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let client: Client;
  let checkId = '';
  const clock = createFakeClock(NOW);
  const call = async (args: Record<string, unknown>) =>
    (await client.callTool({
      name: 'get_check_results',
      arguments: { check_id: checkId, ...args },
    })) as CallToolResult;

  beforeAll(async () => {
    api = await start({ clock });
    const entity = await newEntity(api, { name: 'Checkout' });
    checkId = await newCheck(api, quietTcpCheck(entity, { interval_seconds: 10, name: 'Checkout port' }));
    // One result two hours ago (outside the default window), then one every 10 s for the last hour.
    const results: [number, ReturnType<typeof outcomeOf>][] = [
      [NOW - 7_200_000, { success: true, error_message: '' }],
      ...Array.from(
        { length: SLOTS },
        (_, i) => [slotMs(i), outcomeOf(i)] as [number, ReturnType<typeof outcomeOf>],
      ),
    ];
    for (const [i, [at, outcome]] of results.entries()) {
      const prober: Prober = async () => ({
        startedMs: at,
        outcome: { status_code: 0, latency_ms: i, ...outcome },
      });
      await probeCellSlot(api, prober, checkId, at);
    }
    await enableToolsets(api, api.adminKey);
    client = await connectSdkClient(api, api.adminKey);
  }, 300_000);
  afterAll(async () => {
    await client?.close();
    await api?.close();
  });

  it('answers an hour of a 10 s check with 50 results and the window’s summary, in a small answer', async () => {
    const first = await call({});
    expect(first.isError).toBeFalsy();
    expect(data(first).results).toHaveLength(50);
    expect(data(first).results[0].checked_at).toBe(new Date(slotMs(SLOTS - 1)).toISOString());
    expect(data(first).summary).toEqual({
      results: SLOTS,
      up: SLOTS - 10 - 6,
      degraded: 6,
      down: 10,
      inconclusive: 0,
      latency_p50_ms: 180,
      latency_p95_ms: 342,
      first_at: new Date(slotMs(0)).toISOString(),
      last_at: new Date(slotMs(SLOTS - 1)).toISOString(),
      complete: true,
    });
    expect(data(first).next_cursor).toEqual(expect.any(String));
    // 50 results, their copy in the text, the summary: well under the 50 KB of any answer.
    expect(bytes(first)).toBeLessThan(30_000);
    const words = first.content[0]?.type === 'text' ? first.content[0].text : '';
    expect(words).toContain(
      'Check "Checkout port" of Checkout (service/', // the entity's slug is the fixture's
    );
    expect(words).toContain(`last 1 h: ${SLOTS} results from ${new Date(slotMs(0)).toISOString()}`);
    expect(words).toContain('344 up, 6 degraded, 10 down; latency p50 180 ms, p95 342 ms');
  });

  it('walks the window with next_cursor: every result once, pages under 50 KB, no summary after the first', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await call({ limit: 500, ...(cursor ? { cursor } : {}) });
      expect(page.isError).toBeFalsy();
      expect(bytes(page)).toBeLessThan(50_000);
      if (pages > 0) expect(data(page).summary).toBeNull();
      seen.push(...data(page).results.map((r: { checked_at: string }) => r.checked_at));
      cursor = data(page).next_cursor ?? undefined;
      pages += 1;
    } while (cursor && pages < 50);
    // The bytes, not the limit of 500, cut the pages; the result before the window is not in any.
    expect(pages).toBeGreaterThan(1);
    expect(seen).toHaveLength(SLOTS);
    expect(new Set(seen).size).toBe(SLOTS);
    expect(seen.at(-1)).toBe(new Date(slotMs(0)).toISOString());
  });

  it('widens the window with hours and refuses a limit over 500 or a forged cursor', async () => {
    expect(data(await call({ hours: 3, limit: 1 })).summary).toMatchObject({
      results: SLOTS + 1,
      up: SLOTS - 15,
    });
    const tooMany = await call({ limit: 501 });
    expect(tooMany.isError).toBe(true);
    expect(JSON.stringify(tooMany.content)).toContain('/limit must be <= 500');
    const forged = await call({ cursor: 'not-a-cursor' });
    expect(forged.isError).toBe(true);
  });
});

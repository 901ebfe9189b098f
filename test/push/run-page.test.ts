import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultRecordedOp } from '../../lib/checks/items/result-items.ts';
import { createFakeClock, isoTime } from '../../lib/platform/clock.ts';
import { newId } from '../../lib/platform/ids.ts';
import { newRunId, runWrittenOp } from '../../lib/push/runs/run-items.ts';
import { RESULTS_SCANNED } from '../../lib/push/runs/run-page.ts';
import { type ApiHarness, bothRuntimes } from '../support/api-harness.ts';
import { pingKit } from '../support/ping-compat-kit.ts';

/**
 * GET /v1/checks/{id}/runs merges a check's run items with its plain successes, which are stored
 * only as their result (issue 78 point 6: one write a ping, lib/push/runs/run-page.ts): newest
 * first across both, paged with one cursor, a plain success stored before this with its own run
 * item shown once, and a page's scan of results bounded (RESULTS_SCANNED), on both runtimes.
 */
describe.each(bothRuntimes)(
  'the runs list over run items and plain successes ($runtime runtime)',
  ({ start }) => {
    let api: ApiHarness;
    const clock = createFakeClock(Date.parse('2026-03-02T03:00:00.000Z'));
    const kit = pingKit(() => api);
    // biome-ignore lint/suspicious/noExplicitAny: runs are inspected freely
    const page = async (checkId: string, query: string): Promise<any> => {
      const res = await kit.call('GET', `/v1/checks/${checkId}/runs${query}`);
      expect(res.status, res.text).toBe(200);
      return res.body;
    };
    /** Every page of `limit` from the first, as [outcome, ended_at] per page. */
    const walk = async (checkId: string, limit: number) => {
      const pages: [string, string | null][][] = [];
      let cursor: string | null = null;
      do {
        const body = await page(checkId, `?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
        pages.push(
          body.runs.map((r: { outcome: string; ended_at: string | null }) => [r.outcome, r.ended_at]),
        );
        cursor = body.next_cursor;
      } while (cursor && pages.length < 50);
      return pages;
    };
    const at = () => isoTime(clock.now());

    beforeAll(async () => {
      api = await start({ clock });
    });
    afterAll(async () => {
      await api.close();
    });

    it('gives plain successes and timed runs newest first, in pages of one cursor, each once', async () => {
      const { checkId, token } = await kit.pushCheck();
      const ends: string[] = [];
      await api.request('GET', `/ping/${token}`);
      ends.push(at());
      clock.advance(60_000);
      await api.request('GET', `/ping/${token}/start`);
      clock.advance(30_000);
      await api.request('GET', `/ping/${token}`);
      ends.push(at());
      clock.advance(60_000);
      await api.request('GET', `/ping/${token}`);
      ends.push(at());
      clock.advance(60_000);
      await api.request('GET', `/ping/${token}/fail`);
      ends.push(at());
      clock.advance(60_000);
      await api.request('GET', `/ping/${token}`);
      ends.push(at());

      const newestFirst: [string, string][] = [
        ['success', ends[4] ?? ''],
        ['fail', ends[3] ?? ''],
        ['success', ends[2] ?? ''],
        ['success', ends[1] ?? ''],
        ['success', ends[0] ?? ''],
      ];
      // Only the timed run and the /fail have run items: the plain successes are their results.
      const stored = await api.table.query({
        pk: `CHECK#${checkId}`,
        sk: { op: 'beginsWith', prefix: 'RUN#' },
      });
      expect(stored.items).toHaveLength(2);
      expect(await walk(checkId, 100)).toEqual([newestFirst]);
      expect(await walk(checkId, 2)).toEqual([
        newestFirst.slice(0, 2),
        newestFirst.slice(2, 4),
        newestFirst.slice(4),
      ]);
      expect((await walk(checkId, 1)).flat()).toEqual(newestFirst);
      const all = await page(checkId, '');
      expect(all.runs[3]).toMatchObject({
        started_at: isoTime(Date.parse(ends[1] ?? '') - 30_000),
        duration_ms: 30_000,
      });
      expect(all.runs[4]).toEqual({
        id: expect.stringMatching(/^run_/),
        started_at: null,
        ended_at: ends[0],
        duration_ms: null,
        outcome: 'success',
        flags: [],
      });
    });

    it('shows a plain success stored with its own run item (before this release) once, on either side of a page', async () => {
      const { checkId, token } = await kit.pushCheck();
      const ends: string[] = [];
      for (let i = 0; i < 3; i += 1) {
        clock.advance(60_000);
        await api.request('GET', `/ping/${token}`);
        ends.push(at());
      }
      // As plain successes were stored before: each result with its run of unknown duration beside it.
      for (const end of ends) {
        const run = {
          id: newRunId(Date.parse(end)),
          check_id: checkId,
          started_at: null,
          ended_at: end,
          duration_ms: null,
          outcome: 'success' as const,
          flags: [],
        };
        await api.table.transact([runWrittenOp(run, 30)]);
      }
      const expected = [...ends].reverse().map((end) => ['success', end]);
      expect(await walk(checkId, 100)).toEqual([expected]);
      expect((await walk(checkId, 1)).flat()).toEqual(expected);
      expect((await walk(checkId, 2)).flat()).toEqual(expected);
    });

    it('scans a bounded number of results a page: many other results end a page short, with a cursor to read on', async () => {
      const { checkId, token } = await kit.pushCheck();
      await api.request('GET', `/ping/${token}/start`);
      clock.advance(10_000);
      await api.request('GET', `/ping/${token}`);
      const timedEnd = at();
      // More results than a page scans, none a plain success (keyed reports), then one plain success.
      const ttl = Math.floor(clock.now() / 1000) + 30 * 86_400;
      for (let i = 0; i < RESULTS_SCANNED + 5; i += 1) {
        clock.advance(1_000);
        const result = {
          id: newId('res', clock.now()),
          check_id: checkId,
          status_code: 0,
          latency_ms: 1,
          success: true,
          error_message: '',
          checked_at: at(),
        };
        await api.table.transact([resultRecordedOp(result, { ttl })]);
      }
      clock.advance(60_000);
      await api.request('GET', `/ping/${token}`);
      const plainEnd = at();

      const first = await page(checkId, '?limit=20');
      expect(first.runs.map((r: { ended_at: string }) => r.ended_at)).toEqual([plainEnd]);
      expect(first.next_cursor).toEqual(expect.any(String));
      expect((await walk(checkId, 20)).flat()).toEqual([
        ['success', plainEnd],
        ['success', timedEnd],
      ]);
      // A cursor is its check's list's: another check's is refused.
      const other = await kit.pushCheck();
      const refused = await kit.call('GET', `/v1/checks/${other.checkId}/runs?cursor=${first.next_cursor}`);
      expect(refused.status).toBe(400);
    });
  },
);

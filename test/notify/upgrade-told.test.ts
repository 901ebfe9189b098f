import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../lib/local/runtime.ts';
import {
  forgetToldSeed,
  loadPreviousRelease,
  type PreviousRelease,
  previousRelease,
} from '../fixtures/previous-release-told/load.ts';
import { type LambdaHarness, startLambdaHarness } from '../support/api-harness.ts';
import { startOnPreviousData, type UpgradedRuntime } from '../support/previous-data-dir.ts';
import { recordingListener, type SeenRequest } from '../support/recording-listener.ts';

/**
 * An upgrade keeps every pending recovery (issue 75 point 1). The release before the channels' last
 * words (test/fixtures/previous-release-told, written by main at 447ba2d0) sent six downs and kept
 * no word; a recovery goes only to a channel whose word says the entity was not up. The migration
 * seeds each word from the delivery log, so once the six recover every receiver told "down" is told
 * "up": on SQLite when the local runtime opens that release's data directory (the migrations at
 * start), and on DynamoDB Local when `data migrate` runs after the cloud deploy. The model tests
 * start from an empty store and cannot see this.
 */

/** The three receivers of the fixture on one plain HTTP server on 127.0.0.1 (paths /own-a, /own-b, /shared). */
async function startReceivers() {
  const seen: SeenRequest[] = [];
  const server = createServer(recordingListener(seen, (_, res) => res.writeHead(204).end()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    seen,
    /** What each receiver was told: `<receiver> <entity slug> <state>`, sorted. */
    told(dump: PreviousRelease) {
      const slugOf = new Map(dump.entities.map((e) => [e.entity_id, e.slug]));
      return seen
        .map((r) => {
          const body = JSON.parse(r.body) as { entity_id: string; to_state: string };
          return `${r.path.slice(1)} ${slugOf.get(body.entity_id)} ${body.to_state}`;
        })
        .sort();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** What the receivers must hear once svc-1..6 recover: each receiver that was told one down, its up. */
function recoveriesExpected(dump: PreviousRelease): string[] {
  const recovering = dump.entities.filter((e) => e.slug !== 'svc-7');
  return recovering.flatMap((e) => [`${e.receiver} ${e.slug} up`, `shared ${e.slug} up`]).sort();
}

/** The dump's own record of what that release told: six downs (and svc-7's down and up) on each receiver it reached. */
function toldBefore(dump: PreviousRelease): string[] {
  const slugOf = new Map(dump.entities.map((e) => [e.entity_id, e.slug]));
  return dump.received.map((r) => `${r.path.slice(1)} ${slugOf.get(r.entity_id)} ${r.to_state}`).sort();
}

/** Bounded wait for the receivers to have read `count` requests. */
async function heard(receivers: { seen: SeenRequest[] }, count: number, settle: () => Promise<void>) {
  for (let round = 0; round < 200 && receivers.seen.length < count; round += 1) {
    await settle();
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('upgrading a local data directory of the release before the last words (SQLite, migrated at start)', () => {
  let receivers: Awaited<ReturnType<typeof startReceivers>>;
  let dump: PreviousRelease;
  let started: UpgradedRuntime | undefined;
  let runtime: LocalRuntime;

  beforeAll(async () => {
    receivers = await startReceivers();
    dump = previousRelease(receivers.origin);
    started = await startOnPreviousData('vigil-upgrade-told-', (table) => loadPreviousRelease(table, dump), {
      VIGIL_EGRESS_ALLOW: '127.0.0.0/8',
    });
    runtime = started.runtime;
  });
  afterAll(async () => {
    await started?.stop();
    await receivers?.close();
  });

  it('tells each receiver the recovery of every entity it was told down', async () => {
    expect(toldBefore(dump)).toHaveLength(16);
    const push = async (checkId: string) => {
      const res = await fetch(`${runtime.url}/v1/checks/${checkId}/results`, {
        method: 'POST',
        headers: { authorization: `Bearer ${dump.api_key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ success: true, latency_ms: 5, error_message: '' }),
      });
      expect(res.status, await res.text()).toBe(201);
    };
    for (const entity of dump.entities) await push(entity.check_id);
    const settle = async () => {
      await runtime.drainChanges();
      await runtime.notifyRunner.idle();
    };
    await heard(receivers, 12, settle);
    await settle();
    expect(receivers.told(dump)).toEqual(recoveriesExpected(dump));
  });
});

describe('upgrading a DynamoDB store of the release before the last words (data migrate after the deploy)', () => {
  let receivers: Awaited<ReturnType<typeof startReceivers>>;
  let dump: PreviousRelease;
  let api: LambdaHarness;

  beforeAll(async () => {
    receivers = await startReceivers();
    dump = previousRelease(receivers.origin);
    api = await startLambdaHarness({ env: { VIGIL_EGRESS_ALLOW: '127.0.0.0/8' } });
    await forgetToldSeed(api.table);
    await loadPreviousRelease(api.table, dump);
    // That release handled the changes it wrote: the new one's stream function never sees them.
    expect(await api.skipChanges()).toBeGreaterThan(0);
  });
  afterAll(async () => {
    await api?.close();
    await receivers?.close();
  });

  it('seeds each channel’s word once, and tells each receiver the recovery of every entity it was told down', async () => {
    const seeded = async () => JSON.parse(await api.operator(['data', 'migrate'])).told_words_seeded;
    const first = await seeded();
    const second = await seeded();
    // Without the marker, a run finds every word stored and writes none.
    await forgetToldSeed(api.table);
    const unmarked = await seeded();

    for (const entity of dump.entities) {
      const res = await api.request('POST', `/v1/checks/${entity.check_id}/results`, {
        key: dump.api_key,
        body: { success: true, latency_ms: 5, error_message: '' },
      });
      expect(res.status, res.text).toBe(201);
    }
    const settle = async () => {
      await api.drainChanges();
      await api.runNotifyJobs();
    };
    await heard(receivers, 12, settle);
    await settle();
    expect(receivers.told(dump)).toEqual(recoveriesExpected(dump));
    // Seven entities, each told on its own channel and on the shared one; once.
    expect([first, second, unmarked]).toEqual([14, 0, 0]);
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { callServer, killGroup, type ServeProcess, startServeProcess } from '../support/serve-process.ts';

/**
 * Outside alerts across kill -9 (issue 77 point 6): a real server process (bin/serve.ts on one data
 * dir) takes rounds of Alertmanager requests and is killed with SIGKILL while they are in flight;
 * restarted, it is sent again every request it did not answer 202, as Alertmanager does. The
 * invariant, over generated rounds (fast-check, seed printed): once every request is answered,
 * each alert's stored status and severity are the last its sender said, and each entity's state is
 * its open alerts' worst (critical → down, warning → degraded, none → up): no accepted alert, no
 * resolve and no state move is lost to a kill between an alert's write and its state's.
 */

const ENTITIES = ['e0', 'e1', 'e2'];
const FINGERPRINTS = ['a', 'b', 'c', 'd', 'e', 'f'];
const dataDir = mkdtempSync(join(tmpdir(), 'vigil-ingest-kill-'));
let proc: ServeProcess | undefined;

afterAll(() => {
  if (proc) killGroup(proc);
  rmSync(dataDir, { recursive: true, force: true });
});

interface Event {
  fp: string;
  status: 'firing' | 'resolved';
  severity: 'critical' | 'warning';
}

/** The entity a fingerprint's alerts name (fixed per fingerprint, as a real alert's labels are). */
const entityOf = (fp: string) => ENTITIES[FINGERPRINTS.indexOf(fp) % ENTITIES.length] as string;

const body = (events: readonly Event[]) => ({
  version: '4',
  status: events.some((e) => e.status === 'firing') ? 'firing' : 'resolved',
  alerts: events.map((e) => ({
    status: e.status,
    fingerprint: e.fp,
    labels: { alertname: `A-${e.fp}`, service: entityOf(e.fp), severity: e.severity },
    annotations: { summary: `${e.fp} is ${e.severity}` },
  })),
});

/** One round: each fingerprint at most once, split over up to three requests sent at once. */
const round = fc
  .uniqueArray(
    fc.record({
      fp: fc.constantFrom(...FINGERPRINTS),
      status: fc.constantFrom<'firing' | 'resolved'>('firing', 'resolved'),
      severity: fc.constantFrom<'critical' | 'warning'>('critical', 'warning'),
    }),
    { selector: (e) => e.fp, minLength: 1, maxLength: FINGERPRINTS.length },
  )
  .chain((events) =>
    fc.record({
      events: fc.constant(events),
      requests: fc.integer({ min: 1, max: 3 }),
      killAfterMs: fc.integer({ min: 0, max: 150 }),
    }),
  );

describe('outside alerts across kill -9', () => {
  it('keeps every alert and its entity’s state as the senders said, through kills in flight', {
    timeout: 300_000,
  }, async () => {
    const env = { VIGIL_DATA_DIR: dataDir };
    proc = await startServeProcess(env);
    const key = /vgl_[0-9A-Za-z]{38}/.exec(proc.stdout())?.[0] ?? '';
    const api = (method: string, path: string, data?: unknown) =>
      callServer((proc as ServeProcess).url, key, method, path, data);
    await api('POST', '/v1/blueprints', { slug: 'svc', name: 'Service' });
    for (const slug of ENTITIES) await api('POST', '/v1/blueprints/svc/entities', { slug, name: slug });
    const made = await api('POST', '/v1/integrations', {
      name: 'Prometheus',
      kind: 'alertmanager',
      entity_rules: [{ match: {}, entity: 'svc/{{labels.service}}' }],
    });
    expect(made.status).toBe(201);
    const token = made.body.token as string;

    const seed = Number(process.env.FC_SEED ?? Date.now() % 2_147_483_647);
    console.log(`ingest-kill seed ${seed} (FC_SEED=${seed} to replay)`);
    const rounds = fc.sample(fc.array(round, { minLength: 4, maxLength: 4 }), { seed, numRuns: 1 })[0] ?? [];

    /** What each fingerprint's sender last said. */
    const said = new Map<string, Event>();
    /** Entities an alert ever opened on (each has an outside check from then on). */
    const opened = new Set<string>();
    let kills = 0;
    let sent = 0;
    let unanswered = 0;
    for (const { events, requests, killAfterMs } of rounds) {
      const parts = Array.from({ length: requests }, (_, r) =>
        events.filter((_, i) => i % requests === r),
      ).filter((p) => p.length > 0);
      const send = (part: Event[]) =>
        fetch(`${(proc as ServeProcess).url}/in/${token}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body(part)),
        }).then(
          (res) => res.status,
          () => 0,
        );
      const answers = parts.map(send);
      await sleep(killAfterMs);
      killGroup(proc);
      await proc.exited;
      kills += 1;
      const statuses = await Promise.all(answers);
      proc = await startServeProcess(env);
      // The sender sends again what was not answered 202 (bounded: a refusal here fails the test).
      sent += parts.length;
      for (const [i, part] of parts.entries()) {
        if (statuses[i] === 202) continue;
        unanswered += 1;
        expect(await send(part)).toBe(202);
      }
      for (const e of events) {
        said.set(e.fp, e);
        if (e.status === 'firing') opened.add(entityOf(e.fp));
      }
    }

    const stored = new Map<string, { status: string; severity: string; entity_id: string }>();
    const page = await api('GET', '/v1/outside-alerts?limit=100');
    for (const a of page.body.alerts) stored.set(a.dedup_key, a);
    for (const [fp, e] of said) {
      const got = stored.get(fp);
      if (e.status === 'firing')
        expect({ fp, status: got?.status, severity: got?.severity }).toEqual({
          fp,
          status: 'triggered',
          severity: e.severity,
        });
      else expect({ fp, open: got !== undefined && got.status !== 'resolved' }).toEqual({ fp, open: false });
    }
    for (const slug of opened) {
      const open = [...said.values()].filter((e) => entityOf(e.fp) === slug && e.status === 'firing');
      const want = open.some((e) => e.severity === 'critical') ? 'down' : open.length > 0 ? 'degraded' : 'up';
      const entity = await api('GET', `/v1/blueprints/svc/entities/${slug}`);
      expect({ slug, state: entity.body.state }).toEqual({ slug, state: want });
    }
    console.log(`ingest-kill: ${kills} kills, ${unanswered} of ${sent} requests unanswered and sent again`);
    expect(kills).toBe(rounds.length);
  });
});

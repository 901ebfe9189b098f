import { createHmac } from 'node:crypto';
import { request as httpsRequest } from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { type FlapFigures, runFlapRound } from './alert-flapping.ts';
import { type Arrival, countMatched, matchPhase, type PhaseMatch, splitStages } from './alert-stats.ts';
import { call } from './push.ts';
import { processUsage } from './serve.ts';
import { type Percentiles, percentiles } from './stats.ts';
import { idSchema, inBatches, postResult, startWebhookRig, wallMs } from './webhook-rig.ts';

/**
 * Alert latency: the product (bin/serve.ts in a child, its own data dir) with `checks` push checks,
 * each on its own entity with a policy (cooldown 0, recovery alerts, flap detection off: every round
 * changes each check twice, and the default detection holds from the seventh change on; the storm
 * fold raised to its bound for the same reason) and a signed webhook channel
 * to an HTTPS receiver (bench/alerts-receiver.ts, another child, test CA trusted by the server
 * through NODE_EXTRA_CA_CERTS). Each phase posts a crossing result to every check at once and
 * waits for every alert at the receiver. Side by side: the same number of HTTPS POSTs from a bare
 * Node loop to the same receiver at the same concurrency, a fresh connection each (as Vigil sent
 * before its kept-alive pools, lib/egress/egress-pool.ts): the design Vigil is measured against.
 * Then, on the same checks, the flapping round (bench/alert-flapping.ts), reported apart.
 */

export interface AlertFigures {
  checks: number;
  /** Measured rounds (each: every check down, then every check up). */
  rounds: number;
  expected: number;
  /** Alerts read at the receiver and matched to the result that caused them. */
  alerts: number;
  /** From the 201 of the crossing result at the load generator (an upper bound of the commit). */
  from201Ms: Percentiles;
  /** From the event's `timestamp`: the recorder's clock when the result arrived, before the commit. */
  fromEventMs: Percentiles;
  /**
   * The latency split at the delivery record's creation (ms precision): event time to record
   * (change feed, notify queue, flow), record to the receiver's read (deliver job's wait, the send).
   */
  stagesMs: { toRecord: Percentiles; toRead: Percentiles };
  /** Alerts over the measured phases' wall time (first post to last alert read). */
  alertsPerSecond: number;
  missing: number;
  duplicates: number;
  badSignatures: number;
  foreign: number;
  /** `sent` delivery records read back through GET /v1/notify/logs, warm-up rounds included. */
  sentLogged: number;
  /** Alerts sent in all, warm-up rounds included: what `sentLogged` should be. */
  sentExpected: number;
  /** Server CPU (all threads) over the measured phases, per alert (includes ingesting its result). */
  serverCpuMsPerAlert: number;
  bare: { requests: number; latencyMs: Percentiles; requestsPerSecond: number; missing: number };
  /** Whether the rounds ran with flap detection off (false: the server has no flap settings, --against an older commit). */
  flapSettings: boolean;
  /** Whether the storm fold was raised to 1,000 alerts a channel a minute (false: the server has no fold). */
  foldRaised: boolean;
  /** The flapping round, when the server has flap settings and it was asked for. */
  flapping?: FlapFigures;
}

export interface AlertOptions {
  checks: number;
  rounds: number;
  warmupRounds: number;
  phaseTimeoutMs: number;
  /** The flapping round's window (at least 60 s, the API's bound); 0: no flapping round. */
  flapWindowSeconds: number;
  logFile: string;
  nodeFlags?: string[];
  /** Another checkout whose bin/serve.ts is measured (--against); the receiver and the bare loop stay this one's. */
  root?: string;
  onProgress?: (line: string) => void;
}

const logsPage = z.object({
  logs: z.array(z.object({ transition_id: z.string().nullable(), created_at: z.string() })),
  next_cursor: z.string().nullable(),
});
/** Where the receiver's arrivals land; each phase starts a new array. */
interface Inbox {
  arrivals: Arrival[];
}

/** Delivery records with `status`, paged through the API: their count and creation time by transition id. */
async function readLogs(
  url: string,
  key: string,
  status: string,
): Promise<{ count: number; createdMs: Map<string, number> }> {
  const createdMs = new Map<string, number>();
  let count = 0;
  let cursor: string | null = null;
  for (let page = 0; page < 10_000; page += 1) {
    const query: string = `status=${status}&limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const read = logsPage.parse(await call(url, key, 'GET', `/v1/notify/logs?${query}`));
    count += read.logs.length;
    for (const log of read.logs)
      if (log.transition_id) createdMs.set(log.transition_id, Date.parse(log.created_at));
    cursor = read.next_cursor;
    if (!cursor) break;
  }
  return { count, createdMs };
}

/** Runs the scenario: setup, warm-up, measured rounds, the bare loop, the read-back. */
export async function runAlerts(options: AlertOptions): Promise<AlertFigures> {
  const inbox: Inbox = { arrivals: [] };
  const rig = await startWebhookRig({
    name: 'alerts',
    logFile: options.logFile,
    ...(options.nodeFlags ? { nodeFlags: options.nodeFlags } : {}),
    ...(options.root ? { root: options.root } : {}),
    maxSockets: options.checks,
    onArrivals: (arrivals) => inbox.arrivals.push(...arrivals),
  });
  const { serve, key, secret, tls, origin, api, agent, base } = rig;
  let flapSettings = true;
  /** The rounds' policy; a server that refuses flap settings has no flap detection to turn off. */
  const setPolicy = async (checkId: string) => {
    const policy = { cooldown_seconds: 0, notify_on_recovery: true };
    if (flapSettings) {
      try {
        return await api('POST', `/v1/checks/${checkId}/policy`, { ...policy, flap_changes: 0 });
      } catch (error) {
        if (!(error instanceof Error && / 400 .*flap_changes/.test(error.message))) throw error;
        flapSettings = false;
      }
    }
    return api('POST', `/v1/checks/${checkId}/policy`, policy);
  };
  try {
    // The storm fold sends a channel at most 10 alerts a minute alone by default; the rounds send each
    // channel two a round. Raised to its bound (a server without the setting has no fold: 404).
    const foldRaised = await api('PUT', '/v1/settings/alerting', { alert_fold_per_minute: 1000 }).then(
      () => true,
      (error: unknown) => {
        if (error instanceof Error && / 404 /.test(error.message)) return false;
        throw error;
      },
    );
    await api('POST', '/v1/blueprints', { slug: 'services', name: 'Services' });
    const indexes = Array.from({ length: options.checks }, (_, i) => i);
    const checkIds = await inBatches(indexes, 10, async (i) => {
      const entity = idSchema.parse(
        await api('POST', '/v1/blueprints/services/entities', { slug: `svc-${i}`, name: `Service ${i}` }),
      );
      const check = idSchema.parse(
        await api('POST', '/v1/checks', {
          entity_id: entity.id,
          check_type: 'push',
          interval_seconds: 86_400,
          failure_threshold: 1,
        }),
      );
      await setPolicy(check.id);
      await api('POST', `/v1/checks/${check.id}/policy/channels`, {
        channel_type: 'webhook',
        config: { url: `${origin}/hook`, secret },
      });
      return check.id;
    });
    options.onProgress?.(
      `alerts: ${checkIds.length} push checks with a webhook each, flap detection ${flapSettings ? 'off' : 'absent (no flap settings)'}, storm fold ${foldRaised ? 'at 1,000 a minute' : 'absent'}`,
    );

    /** One phase: every check gets a result crossing into `toState` at once; waits for every alert. */
    const phase = async (toState: 'up' | 'down'): Promise<{ match: PhaseMatch; ms: number }> => {
      inbox.arrivals = [];
      const started = wallMs();
      const answeredAtMs = new Map<string, number>();
      await Promise.all(
        checkIds.map(async (id) =>
          answeredAtMs.set(id, await postResult(agent, base, key, id, toState === 'up')),
        ),
      );
      const deadline = started + options.phaseTimeoutMs;
      while (countMatched(answeredAtMs, toState, inbox.arrivals) < checkIds.length && wallMs() < deadline)
        await sleep(10);
      const arrivals = inbox.arrivals;
      const lastRead = Math.max(started, ...arrivals.map((a) => a.readAtMs));
      return { match: matchPhase(answeredAtMs, toState, arrivals), ms: lastRead - started };
    };

    // The first result of each check (unknown -> up) alerts no one: it is logged `skipped`.
    await Promise.all(checkIds.map((id) => postResult(agent, base, key, id, true)));
    for (let i = 0; i < 300 && (await readLogs(serve.url, key, 'skipped')).count < checkIds.length; i += 1)
      await sleep(100);
    for (let r = 0; r < options.warmupRounds; r += 1) {
      await phase('down');
      await phase('up');
    }

    const matches: PhaseMatch[] = [];
    let measuredMs = 0;
    const before = processUsage(serve.child.pid);
    for (let r = 0; r < options.rounds; r += 1) {
      for (const toState of ['down', 'up'] as const) {
        const { match, ms } = await phase(toState);
        matches.push(match);
        measuredMs += ms;
      }
      const last = matches.at(-1);
      options.onProgress?.(
        `alerts round ${r + 1}/${options.rounds}: ${last ? last.from201Ms.length : 0} recoveries read, ${matches.reduce((s, m) => s + m.missing, 0)} missing so far`,
      );
    }
    const after = processUsage(serve.child.pid);

    const bare = await runBareSends(
      inbox,
      origin,
      tls.caCert,
      secret,
      checkIds.length,
      options.rounds * 2,
      options,
    );
    const from201 = matches.flatMap((m) => m.from201Ms);
    const sum = (pick: (m: PhaseMatch) => number) => matches.reduce((s, m) => s + pick(m), 0);
    await sleep(500);
    const sent = await readLogs(serve.url, key, 'sent');
    const stages = splitStages(
      matches.flatMap((m) => m.alerts),
      sent.createdMs,
    );
    const flapping =
      flapSettings && options.flapWindowSeconds > 0
        ? await runFlapRound({
            api,
            agent,
            base,
            key,
            checkIds,
            inbox,
            windowSeconds: options.flapWindowSeconds,
            phaseTimeoutMs: options.phaseTimeoutMs,
            ...(options.onProgress ? { onProgress: options.onProgress } : {}),
          })
        : undefined;
    return {
      checks: checkIds.length,
      rounds: options.rounds,
      expected: options.rounds * 2 * checkIds.length,
      alerts: from201.length,
      from201Ms: percentiles(from201),
      fromEventMs: percentiles(matches.flatMap((m) => m.fromEventMs)),
      alertsPerSecond: (from201.length * 1000) / Math.max(1, measuredMs),
      missing: sum((m) => m.missing),
      duplicates: sum((m) => m.duplicates),
      badSignatures: sum((m) => m.badSignatures),
      foreign: sum((m) => m.foreign),
      stagesMs: { toRecord: percentiles(stages.toRecordMs), toRead: percentiles(stages.toReadMs) },
      sentLogged: sent.count,
      sentExpected: (options.rounds + options.warmupRounds) * 2 * checkIds.length,
      serverCpuMsPerAlert:
        before && after
          ? ((after.cpuSeconds - before.cpuSeconds) * 1000) / Math.max(1, from201.length)
          : Number.NaN,
      bare,
      flapSettings,
      foldRaised,
      ...(flapping ? { flapping } : {}),
    };
  } finally {
    await rig.stop();
  }
}

/** One bare HTTPS POST of an event-shaped, signed body on a fresh connection (agent: false). */
function bareSend(origin: URL, ca: string, body: string, delivery: string, signature: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      {
        agent: false,
        ca: [ca],
        hostname: origin.hostname,
        port: origin.port,
        path: '/hook',
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'x-service-delivery': delivery,
          'x-service-signature': signature,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve());
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * The baseline: `phases` times, `width` POSTs sent at once from this process, waiting for all of
 * them at the receiver; latency from the moment each request was started to the receiver's read.
 */
async function runBareSends(
  inbox: Inbox,
  origin: string,
  ca: string,
  secret: string,
  width: number,
  phases: number,
  options: AlertOptions,
): Promise<AlertFigures['bare']> {
  const url = new URL(origin);
  const samples: number[] = [];
  let missing = 0;
  let elapsedMs = 0;
  for (let p = -1; p < phases; p += 1) {
    const startedAt = new Map<string, number>();
    const sends: Promise<void>[] = [];
    inbox.arrivals = [];
    const started = wallMs();
    for (let i = 0; i < width; i += 1) {
      const checkId = `chk_bare${i}`;
      const event = {
        entity_id: `ent_bare${i}`,
        entity_name: `Service ${i}`,
        check_id: checkId,
        tenant_id: 'ten_bare',
        from_state: 'up',
        to_state: 'down',
        transition_id: `trn_bare${p}_${i}`,
        timestamp: new Date().toISOString(),
      };
      const body = JSON.stringify(event);
      const signature = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
      startedAt.set(checkId, wallMs());
      sends.push(bareSend(url, ca, body, `dlv_bare${p}_${i}`, signature));
    }
    await Promise.all(sends);
    const deadline = started + options.phaseTimeoutMs;
    while (countMatched(startedAt, 'down', inbox.arrivals) < width && wallMs() < deadline) await sleep(10);
    const arrivals = inbox.arrivals;
    // Phase -1 warms the loop up, like Vigil's warm-up rounds.
    if (p < 0) continue;
    const match = matchPhase(startedAt, 'down', arrivals);
    samples.push(...match.from201Ms);
    missing += match.missing;
    elapsedMs += Math.max(started, ...arrivals.map((a) => a.readAtMs)) - started;
  }
  return {
    requests: samples.length,
    latencyMs: percentiles(samples),
    requestsPerSecond: (samples.length * 1000) / Math.max(1, elapsedMs),
    missing,
  };
}

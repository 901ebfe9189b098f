import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import type { Arrival } from './alert-stats.ts';
import { processUsage } from './serve.ts';
import { type Percentiles, percentiles } from './stats.ts';
import { idSchema, startWebhookRig, wallMs } from './webhook-rig.ts';

/**
 * Outside alerts in (issue 77): the product over real HTTP (bin/serve.ts in a child, its own data
 * dir) takes a burst of Alertmanager webhooks — `entities × alertsPerEntity` alerts in `requests`
 * requests of equal size, sent `concurrency` at a time — then their resolves. A request is
 * answered once its alerts are stored and each touched entity's outside check has recorded its
 * state, so "settled" is the answer of the last request, checked by reading every entity's state
 * (all down, then all up). CPU is the server process's over each phase, per alert.
 *
 * A route sends every entity's alerts to a signed webhook channel on an HTTPS receiver (another
 * child, bench/alerts-receiver.ts, as the alerts scenario's), so each entity's latency is timed
 * from the answer of the request that moved it (firing: the first answered request carrying one of
 * its alerts; resolving: the last, since it is up only when all of them are resolved) to the
 * receiver's read of its alert or recovery. The storm fold is raised to its bound (1,000 a channel
 * a minute) and the resolves wait out the fire's minute, so each entity's news is its own message;
 * the outside checks' cooldown is set to 0 before the resolves, so no recovery waits for it.
 */

interface IngestPhase {
  /** From the first request sent to the last answered (every state recorded). */
  settledMs: number;
  /** Server CPU (user + system) over the phase, per alert. */
  cpuMsPerAlert: number;
  /** Entities in the state the phase should leave (down after firing, up after resolving). */
  inState: number;
  /**
   * From the answer of the request that moved an entity to the webhook receiver's read of that
   * entity's alert (firing) or recovery (resolving), over the entities read; negative when the
   * message was read before the answer reached the sender.
   */
  toChannelMs: Percentiles;
  /** Entities whose message the receiver had not read when the wait ended. */
  unread: number;
  /** Messages read that were digests (the fold): each of their events is counted at its read. */
  digests: number;
}

export interface IngestFigures {
  entities: number;
  alerts: number;
  requests: number;
  concurrency: number;
  fire: IngestPhase;
  resolve: IngestPhase;
  /** Open outside alerts after the resolves (0 when every resolve landed). */
  openAfter: number;
}

const entityList = z.array(z.object({ slug: z.string(), state: z.string() }));
const integrationSchema = z.object({ token: z.string() });
const checkList = z.array(idSchema);
const openPage = z.object({ alerts: z.array(z.unknown()), next_cursor: z.string().nullable() });
/** The event fields matched (SPEC.md "Events"); a digest carries a list of them. */
const eventFields = z.object({ entity_id: z.string(), to_state: z.string() });
const delivered = z.union([
  z.object({ kind: z.literal('digest'), events: z.array(eventFields) }),
  eventFields.transform((event) => ({ kind: 'event' as const, events: [event] })),
]);

/** Waits this long at most for the channel's reads after a phase's last answer. */
const READ_WAIT_MS = 120_000;
/** The storm fold counts a channel's alerts per minute: the resolves start after the fire's minute. */
const FOLD_MINUTE_MS = 61_000;

/**
 * Each entity's first read (of a message moving it to `toState`) at the receiver, from the
 * arrivals so far; how many of them were digests.
 */
function readsOf(arrivals: readonly Arrival[], toState: string) {
  const readAt = new Map<string, number>();
  let digests = 0;
  for (const arrival of arrivals) {
    let body: unknown;
    try {
      body = JSON.parse(arrival.body);
    } catch {
      continue;
    }
    const parsed = delivered.safeParse(body);
    if (!parsed.success) continue;
    if (parsed.data.kind === 'digest') digests += 1;
    for (const event of parsed.data.events)
      if (event.to_state === toState && !readAt.has(event.entity_id))
        readAt.set(event.entity_id, arrival.readAtMs);
  }
  return { readAt, digests };
}

export async function runIngest(options: {
  entities: number;
  alertsPerEntity: number;
  requests: number;
  concurrency: number;
  logFile: string;
  onProgress?: (line: string) => void;
}): Promise<IngestFigures> {
  let arrivals: Arrival[] = [];
  const rig = await startWebhookRig({
    name: 'ingest',
    logFile: options.logFile,
    maxSockets: options.concurrency,
    onArrivals: (batch) => arrivals.push(...batch),
  });
  const { serve, api, origin, secret } = rig;
  try {
    await api('PUT', '/v1/settings/alerting', { alert_fold_per_minute: 1000 });
    await api('POST', '/v1/blueprints', { slug: 'svc', name: 'Service' });
    const slugs = Array.from({ length: options.entities }, (_, i) => `s${i}`);
    /** Entity ids by index (the alerts name slugs; the messages name ids). */
    const ids: string[] = [];
    for (let i = 0; i < slugs.length; i += 20)
      await Promise.all(
        slugs.slice(i, i + 20).map(async (slug, k) => {
          const made = await api('POST', '/v1/blueprints/svc/entities', { slug, name: slug, fields: {} });
          ids[i + k] = idSchema.parse(made).id;
        }),
      );
    const channel = idSchema.parse(
      await api('POST', '/v1/notify/channels', {
        name: 'receiver',
        channel_type: 'webhook',
        config: { url: `${origin}/hook`, secret },
      }),
    );
    await api('POST', '/v1/notify/routes', {
      match: { blueprint_slugs: ['svc'] },
      channel_ids: [channel.id],
    });
    const { token } = integrationSchema.parse(
      await api('POST', '/v1/integrations', {
        name: 'Prometheus',
        kind: 'alertmanager',
        entity_rules: [{ match: { service: '/.+/' }, entity: 'svc/{{labels.service}}' }],
      }),
    );
    options.onProgress?.(`  ${options.entities} entities and the integration made`);

    const alerts = options.entities * options.alertsPerEntity;
    const perRequest = Math.ceil(alerts / options.requests);
    const body = (r: number, status: 'firing' | 'resolved') => ({
      version: '4',
      status,
      receiver: 'vigil',
      alerts: Array.from({ length: Math.min(perRequest, alerts - r * perRequest) }, (_, k) => {
        const n = r * perRequest + k;
        return {
          status,
          fingerprint: `fp-${n}`,
          labels: { alertname: `A${n}`, service: slugs[n % slugs.length], severity: 'critical' },
          annotations: { summary: `alert ${n}` },
        };
      }),
    });

    /** The requests carrying an alert of each entity (by index). */
    const carriers = slugs.map(() => [] as number[]);
    for (let n = 0; n < alerts; n++) carriers[n % slugs.length]?.push(Math.floor(n / perRequest));

    const phase = async (status: 'firing' | 'resolved', want: 'down' | 'up'): Promise<IngestPhase> => {
      arrivals = [];
      const answeredAt: number[] = [];
      const before = processUsage(serve.child.pid);
      const started = wallMs();
      let next = 0;
      const worker = async () => {
        while (next < options.requests) {
          const r = next++;
          const res = await fetch(`${serve.url}/in/${token}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body(r, status)),
          });
          const text = await res.text();
          if (res.status !== 202) throw new Error(`request ${r}: ${res.status} ${text.slice(0, 300)}`);
          answeredAt[r] = wallMs();
        }
      };
      await Promise.all(Array.from({ length: options.concurrency }, worker));
      const settledMs = wallMs() - started;
      const after = processUsage(serve.child.pid);
      const entities = entityList.parse(await api('GET', '/v1/blueprints/svc/entities'));
      const inState = entities.filter((e) => e.state === want).length;
      const cpuMsPerAlert =
        before && after ? ((after.cpuSeconds - before.cpuSeconds) * 1000) / alerts : Number.NaN;
      // The answer that moved each entity: its first carrier's firing, its last's resolving.
      const movedAt = carriers.map((rs) => {
        const times = rs.map((r) => answeredAt[r] ?? Number.NaN);
        return want === 'down' ? Math.min(...times) : Math.max(...times);
      });
      const deadline = wallMs() + READ_WAIT_MS;
      let reads = readsOf(arrivals, want);
      while (reads.readAt.size < ids.length && wallMs() < deadline) {
        await sleep(20);
        reads = readsOf(arrivals, want);
      }
      const toChannel = ids.flatMap((id, i) => {
        const read = reads.readAt.get(id);
        const moved = movedAt[i];
        return read === undefined || moved === undefined ? [] : [read - moved];
      });
      const toChannelMs = percentiles(toChannel);
      const unread = ids.length - toChannel.length;
      options.onProgress?.(
        `  ${status}: ${alerts} alerts in ${Math.round(settledMs)} ms, ${inState}/${options.entities} ${want}, ${cpuMsPerAlert.toFixed(2)} ms CPU per alert; answer → channel read p50 ${Math.round(toChannelMs.p50)} ms, p99 ${Math.round(toChannelMs.p99)} ms (${unread} unread, ${reads.digests} digests)`,
      );
      return { settledMs, cpuMsPerAlert, inState, toChannelMs, unread, digests: reads.digests };
    };

    const fire = await phase('firing', 'down');
    // Each entity's outside check was made by its first alert, with the default policy, whose
    // cooldown (300 s) would defer the recoveries: set to 0, as the alerts scenario's checks are.
    const waited = sleep(FOLD_MINUTE_MS);
    for (let i = 0; i < ids.length; i += 20)
      await Promise.all(
        ids.slice(i, i + 20).map(async (id) => {
          const checks = checkList.parse(await api('GET', `/v1/checks?entity_id=${id}`));
          for (const check of checks)
            await api('POST', `/v1/checks/${check.id}/policy`, {
              cooldown_seconds: 0,
              notify_on_recovery: true,
            });
        }),
      );
    await waited;
    const resolve = await phase('resolved', 'up');
    const open = openPage.parse(await api('GET', '/v1/outside-alerts?status=open&limit=100'));
    return {
      entities: options.entities,
      alerts,
      requests: options.requests,
      concurrency: options.concurrency,
      fire,
      resolve,
      openAfter: open.alerts.length,
    };
  } finally {
    await rig.stop();
  }
}

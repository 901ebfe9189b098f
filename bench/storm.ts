import { setTimeout as sleep } from 'node:timers/promises';
import { idSchema, inBatches, postResult, startWebhookRig, wallMs } from './webhook-rig.ts';

/**
 * The local storm (issue 35): the product (bin/serve.ts in a child) with `entities` entities of
 * one blueprint, a push check each (cooldown 0), and one route to a signed webhook on an HTTPS
 * receiver on 127.0.0.1 (bench/alerts-receiver.ts). Every entity goes down at once (one failed
 * result each, posted together), stays down `outageSeconds` (and until all were told), then comes back at once. Two modes:
 * `grouped` (the route groups by blueprint, group_wait_seconds 10, group_interval_seconds 60) and
 * `fold` (a plain route: the storm fold alone). Counted at the receiver: notifications (alone and
 * digests) in the first minute, the time until the first one, the distinct entities told down and
 * up, and each recovery's delay from its result's answer to the notification naming it.
 */

export interface StormFigures {
  mode: 'grouped' | 'fold';
  entities: number;
  /** Webhooks read in the first 60 s after the storm's first result was posted. */
  firstMinute: { alone: number; digests: number };
  /** From the first result posted to the first notification read (ms). */
  firstNotificationMs: number | null;
  /** From the first result posted to the read that completed the set of entities told down (ms). */
  allDownMs: number | null;
  /** Distinct entities the receiver was told were down (alone or in a digest). */
  toldDown: number;
  toldUp: number;
  /** Each told recovery's delay from its result's 201 to its read (ms): the largest and the median. */
  recoveryMs: { max: number; p50: number } | null;
  /** Webhooks read in the whole run (both phases). */
  webhooks: number;
}

export interface StormOptions {
  entities: number;
  outageSeconds: number;
  mode: StormFigures['mode'];
  logFile: string;
  /** Another checkout whose bin/serve.ts is measured (--against); fold mode only (it has no grouping). */
  root?: string;
  onProgress?: (line: string) => void;
}

interface Told {
  atMs: number;
  digest: boolean;
  events: { entity_id: string; to_state: string }[];
}

function parseArrival(a: { readAtMs: number; body: string }): Told {
  const body = JSON.parse(a.body);
  if (body.kind === 'digest') return { atMs: a.readAtMs, digest: true, events: body.events };
  return { atMs: a.readAtMs, digest: false, events: [body] };
}

/** Runs one mode of the storm on a fresh runtime. */
export async function runStorm(options: StormOptions): Promise<StormFigures> {
  const told: Told[] = [];
  const rig = await startWebhookRig({
    name: 'storm',
    logFile: options.logFile,
    ...(options.root ? { root: options.root } : {}),
    maxSockets: 64,
    onArrivals: (arrivals) => told.push(...arrivals.map(parseArrival)),
  });
  const { secret, origin, api, agent, base } = rig;
  try {
    await api('POST', '/v1/blueprints', { slug: 'host', name: 'Host' });
    const channel = idSchema.parse(
      await api('POST', '/v1/notify/channels', {
        name: 'storm',
        channel_type: 'webhook',
        config: { url: `${origin}/hook`, secret },
      }),
    );
    const grouping =
      options.mode === 'grouped'
        ? { group_by: 'blueprint', group_wait_seconds: 10, group_interval_seconds: 60 }
        : {};
    await api('POST', '/v1/notify/routes', { channel_ids: [channel.id], ...grouping });
    const indexes = Array.from({ length: options.entities }, (_, i) => i);
    const entityOf = new Map<string, string>();
    const checkIds = await inBatches(indexes, 16, async (i) => {
      const entity = idSchema.parse(
        await api('POST', '/v1/blueprints/host/entities', {
          slug: `web-${i + 1}`,
          name: `Web node ${i + 1}`,
        }),
      );
      const check = idSchema.parse(
        await api('POST', '/v1/checks', {
          entity_id: entity.id,
          check_type: 'push',
          interval_seconds: 86_400,
          failure_threshold: 1,
        }),
      );
      await api('POST', `/v1/checks/${check.id}/policy`, { cooldown_seconds: 0 });
      entityOf.set(entity.id, check.id);
      return check.id;
    });
    // First results (unknown -> up) alert no one.
    await inBatches(checkIds, 64, (id) => postResult(agent, base, rig.key, id, true, 'storm'));
    await sleep(3000);
    told.length = 0;
    options.onProgress?.(`storm (${options.mode}): ${checkIds.length} entities, all down at once`);

    const distinct = (to: string) =>
      new Set(told.flatMap((t) => t.events.filter((e) => e.to_state === to).map((e) => e.entity_id))).size;
    const stormAt = wallMs();
    await Promise.all(checkIds.map((id) => postResult(agent, base, rig.key, id, false, 'storm')));
    // Down at least `outageSeconds`, and until every entity was told down (at most 150 s).
    const downUntil = stormAt + options.outageSeconds * 1000;
    const downDeadline = stormAt + 150_000;
    let allDownMs: number | null = null;
    while (wallMs() < downUntil || (allDownMs === null && wallMs() < downDeadline)) {
      if (allDownMs === null && distinct('down') >= checkIds.length)
        allDownMs = (told.at(-1)?.atMs ?? wallMs()) - stormAt;
      await sleep(50);
    }
    const firstMinute = told.filter((t) => t.atMs <= stormAt + 60_000);
    const toldDown = distinct('down');
    const firstNotificationMs = told[0] ? told[0].atMs - stormAt : null;
    options.onProgress?.(`storm (${options.mode}): ${toldDown} told down; recovering`);

    const answered = new Map<string, number>();
    await Promise.all(
      checkIds.map(async (id) => {
        answered.set(id, await postResult(agent, base, rig.key, id, true, 'storm'));
      }),
    );
    const upDeadline = wallMs() + 150_000;
    while (distinct('up') < checkIds.length && wallMs() < upDeadline) await sleep(100);
    const delays: number[] = [];
    const seen = new Set<string>();
    for (const t of told)
      for (const e of t.events) {
        const checkId = entityOf.get(e.entity_id);
        const at = checkId === undefined ? undefined : answered.get(checkId);
        if (e.to_state !== 'up' || at === undefined || seen.has(e.entity_id)) continue;
        seen.add(e.entity_id);
        delays.push(t.atMs - at);
      }
    delays.sort((a, b) => a - b);
    return {
      mode: options.mode,
      entities: checkIds.length,
      firstMinute: {
        alone: firstMinute.filter((t) => !t.digest).length,
        digests: firstMinute.filter((t) => t.digest).length,
      },
      firstNotificationMs,
      allDownMs,
      toldDown,
      toldUp: distinct('up'),
      recoveryMs:
        delays.length > 0
          ? {
              max: Math.round(delays.at(-1) ?? 0),
              p50: Math.round(delays[Math.floor(delays.length / 2)] ?? 0),
            }
          : null,
      webhooks: told.length,
    };
  } finally {
    await rig.stop();
  }
}

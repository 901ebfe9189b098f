import type { StateChangeEvent } from '../../domain/states.ts';
import { isoTime } from '../../platform/clock.ts';
import type { JobInput } from '../../platform/job-queue.ts';
import type { ChannelRecord } from '../items/channel-items.ts';
import { type ChannelStore, channelSeenFrom } from '../items/channel-store.ts';
import type { RouteRecord } from '../items/route-items.ts';
import { type RouteSubject, routeMatches } from '../items/route-match.ts';
import type { NotifyJob } from '../jobs.ts';
import type { AlertOutcome, AlertVerdict } from '../pipeline/stages.ts';

/**
 * How the simulation (simulate.ts) tells a channel's part in words: how the alert reaches it (the
 * check's own channel, a tenant channel attached to the check, or a route, as channel-store.ts and
 * route-channels.ts reach them) and what the escalations scheduled by the change would do.
 */

/** One decision of the simulation, as the API answers it. */
export interface SimulatedDecision {
  check_id: string | null;
  check_name: string | null;
  /** `alert`: the change's own alert; `escalation`: sent later if the incident stays unacknowledged. */
  kind: 'alert' | 'escalation';
  channel_id: string | null;
  channel_name: string | null;
  channel_type: string | null;
  path: 'own' | 'attached' | 'route' | null;
  route_id: string | null;
  outcome: AlertOutcome;
  reason: string;
  /** defer: when the alert is sent if nothing changes meanwhile. */
  due_at?: string;
  /** escalation: when it is due. */
  escalation_at?: string;
  /** A sent down alert whose policy repeats: the first repeat. */
  repeat_at?: string;
}

/** How one channel is reached; `via` says it in words ("sent: " is added only to a decision that sends). */
export type Reached = Pick<
  SimulatedDecision,
  'channel_id' | 'channel_name' | 'channel_type' | 'path' | 'route_id'
> & {
  via: string;
};

/** A channel's name: a tenant channel's own, else its type and where it sends (never a URL's path or secret). */
export function channelName(channel: ChannelRecord): string {
  if (channel.name !== undefined) return channel.name;
  const config = channel.config as { url?: string; subject?: string; to?: string[] };
  let where = config.subject ?? config.to?.join(', ') ?? '';
  if (config.url) {
    try {
      where = new URL(config.url).host;
    } catch {
      where = '';
    }
  }
  return where ? `${channel.channel_type} ${where}` : channel.channel_type;
}

/** A route's criteria in words. */
function routeWords(route: RouteRecord): string {
  const { blueprint_slugs, entity_ids, to_states } = route.match;
  const parts = [
    blueprint_slugs.length ? `blueprint ${blueprint_slugs.join(' or ')}` : '',
    entity_ids.length ? `entity ${entity_ids.join(' or ')}` : '',
    to_states.length ? `state ${to_states.join(' or ')}` : '',
  ].filter(Boolean);
  return `route ${route.id} (${parts.length ? parts.join(', ') : 'every alert'})`;
}

export interface ChannelPaths {
  of(channel: ChannelRecord): Reached;
}

/**
 * How each channel of the union is reached: the check's own channels carry no name, its attached
 * tenant channels do (channel-store.ts listForCheck); any other came through the first matching
 * route that names it.
 */
export function channelPaths(
  own: readonly ChannelRecord[],
  routes: readonly RouteRecord[],
  subject: RouteSubject,
): ChannelPaths {
  const byCheck = new Map(own.map((c) => [c.id, c.name === undefined ? 'own' : 'attached'] as const));
  const matching = routes.filter((route) => routeMatches(route.match, subject));
  return {
    of(channel) {
      const base = {
        channel_id: channel.id,
        channel_name: channelName(channel),
        channel_type: channel.channel_type,
      };
      const path = byCheck.get(channel.id);
      if (path === 'own') return { ...base, path, route_id: null, via: "the check's own channel" };
      if (path === 'attached')
        return { ...base, path, route_id: null, via: 'a tenant channel attached to the check' };
      const route = matching.find((r) => r.channel_ids.includes(channel.id));
      return {
        ...base,
        path: 'route',
        route_id: route?.id ?? null,
        via: route ? `${routeWords(route)} matches` : 'a matching route',
      };
    },
  };
}

/** What the change's escalation to `due_ms` does, given the verdict on its alert (escalation.ts's rules). */
function escalationOutcome(verdict: AlertVerdict | undefined, dueMs: number, route: string) {
  if (verdict?.step === 'silenced') return { outcome: 'skip' as const, reason: 'silenced' };
  if (verdict?.step === 'upstream')
    return { outcome: 'skip' as const, reason: `${verdict.reason}: a held alert does not escalate` };
  const window = verdict?.maintenance;
  if (window && window.endsMs > dueMs)
    return {
      outcome: 'defer' as const,
      reason: `${verdict.reason}: the escalation waits for the window's end`,
      due_at: isoTime(window.endsMs),
    };
  return {
    outcome: 'send' as const,
    reason: `escalation of ${route}: sent at ${isoTime(dueMs)} if the incident is still unacknowledged`,
  };
}

/** One decision per escalation channel of the change's `escalate` jobs (earliest first, each channel once). */
export async function escalationDecisions(
  deps: { channels: Pick<ChannelStore, 'getSharedMany'> },
  event: StateChangeEvent,
  routes: readonly RouteRecord[],
  jobs: readonly JobInput<NotifyJob>[],
  verdict: AlertVerdict | undefined,
  tag: { check_id: string; check_name: string },
): Promise<SimulatedDecision[]> {
  const escalations = jobs
    .flatMap((job) => (job.body.kind === 'escalate' ? [job.body] : []))
    .sort((a, b) => a.due_ms - b.due_ms);
  const seen = new Set<string>();
  const decisions: SimulatedDecision[] = [];
  for (const job of escalations) {
    const route = routes.find((r) => r.id === job.route_id);
    if (!route) continue;
    for (const shared of await deps.channels.getSharedMany(event.tenant_id, route.escalate_channel_ids)) {
      if (seen.has(shared.id)) continue;
      seen.add(shared.id);
      const channel = channelSeenFrom(shared, event.check_id);
      decisions.push({
        ...tag,
        kind: 'escalation',
        channel_id: channel.id,
        channel_name: channelName(channel),
        channel_type: channel.channel_type,
        path: 'route',
        route_id: route.id,
        escalation_at: isoTime(job.due_ms),
        ...escalationOutcome(verdict, job.due_ms, routeWords(route)),
      });
    }
  }
  return decisions;
}

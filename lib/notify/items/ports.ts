import type { StateChangeEvent } from '../../domain/states.ts';
import type { ChannelRecord, TenantChannelRecord } from './channel-items.ts';
import type { DeliveryKind, DeliveryRecord } from './delivery-items.ts';

/** What a channel is asked to send: the event and what a human message needs. */
export interface Alert {
  event: StateChangeEvent;
  kind: DeliveryKind;
  /** An escalation's whole minutes since the incident opened (unacknowledged all along). */
  unacknowledgedMinutes?: number;
  /** An escalation's seconds since the incident opened (the webhook's `unacknowledged_seconds`). */
  unacknowledgedSeconds?: number;
  /** A repeat's seconds since the change to down or degraded (the webhook's `down_for_seconds`). */
  downForSeconds?: number;
  /** What a root cause holds back (inhibition): its dependents down now, or up again on its recovery. */
  holding?: Holding;
  /** A `flapping` notice's figures: the changes counted within the window (issue 35). */
  flapping?: { changes: number; window_seconds: number } | undefined;
  /** The delivery record's id: the webhook's X-Service-Delivery header, the same on every attempt. */
  deliveryId: string;
  entity: { id: string; name: string; blueprint_slug: string; slug: string };
  /** The check's name: the one given, else derived from its type and target ("HTTP GET api.example.com/health"). */
  checkName: string;
  /** What the check probes, for humans: "GET https://api.example.com/health", "push", "tcp db:5432". */
  checkLabel: string;
  /** The error of the check's latest failed result, if any (redacted as results are: alert-context.ts). */
  lastError: string | null;
  /**
   * Why this message is sent, one line of at most MAX_REASON characters, redacted as results are
   * (DECISIONS.md "Alert truth (wave 5)", Reason): an alert's failing result's error or the rule that
   * moved the entity, a repeat's or escalation's checks failing now, a recovery's rule (alert-context.ts).
   * The webhook/NATS `reason` and every channel's "Reason" line; absent (an alert built by hand): null.
   */
  reason?: string | null;
  /** Checks that started failing after the entity went down (its open incident's "also failing"). */
  alsoFailing?: string[];
  /** The incident the change belongs to (PagerDuty's dedup_key, Opsgenie's alias), if any: incident-of-event.ts. */
  incidentId?: string | undefined;
  /** A browser or multistep check's failing result (its steps, its screenshots): the message's evidence link. */
  evidenceResultId?: string | undefined;
  /** An outside check's alert: its links back to the sender (Prometheus's graph, a Grafana panel). */
  sourceLinks?: { href: string; text: string }[] | undefined;
}

/** One folded event of a digest: the SPEC event fields plus what it would have been sent as alone. */
export interface DigestEvent {
  event: StateChangeEvent;
  kind: 'alert' | 'recovery' | 'repeat' | 'escalation' | 'also_failing';
  /** Why, as an alert of its kind says it (Alert.reason); absent: null. */
  reason?: string | null;
}

/** What a channel is asked to send for one part of a digest (lib/notify/grouping). */
export interface Digest {
  /** The part's delivery record id (X-Service-Delivery), the same on every attempt. */
  deliveryId: string;
  group: { by: 'entity' | 'blueprint' | 'tenant'; key: string; name: string };
  /** The whole digest's events by the state they changed to (every part says the same). */
  counts: { down: number; degraded: number; up: number };
  /** This part's events (at most 1,000), oldest first. */
  events: DigestEvent[];
  part: number;
  parts: number;
}

/** A dependent as an alert names it. */
export interface HoldingDependent {
  entity_id: string;
  name: string;
  state: string;
}

/**
 * The dependents (through depends_on, transitively) of an alert's entity at send time: for a down
 * or degraded alert those down or degraded (held back behind it); for a recovery those up again
 * and those still down. Bounded lists: `dependents_total` counts them all.
 */
export interface Holding {
  dependents: HoldingDependent[];
  dependents_total: number;
  /** Recoveries only: dependents still down or degraded. */
  still_down?: HoldingDependent[];
  /** The status pages showing the entity or one of the dependents. */
  status_pages: { slug: string; title: string }[];
}

/** One attempt's outcome: ok for a 2xx (or a NATS publish the server acknowledged by flush). */
export interface SendOutcome {
  ok: boolean;
  status_code: number | null;
  error: string | null;
  /** Nothing was sent, on purpose: the delivery is logged `skipped` with this reason (email-gate.ts). */
  skipped?: string;
}

/** Sends alerts to channels (lib/notify/channels/); every URL passes the SSRF guard at send time. */
export interface ChannelSenders {
  send(channel: ChannelRecord, alert: Alert): Promise<SendOutcome>;
  /** Sends one part of a digest (every channel type renders it within its size limits). */
  sendDigest?(channel: ChannelRecord, digest: Digest): Promise<SendOutcome>;
  /** Whether the channel's type tells its provider of an acknowledgement (its definition has acknowledge()). */
  acknowledges?(channel: ChannelRecord): boolean;
  /** Tells the channel's provider an incident was acknowledged in Vigil (PagerDuty, Opsgenie). */
  acknowledge?(channel: ChannelRecord, ack: Acknowledgement): Promise<SendOutcome>;
  /** What this deployment lacks for a channel of the type to send (its definition's setupWarnings). */
  warnings?(channelType: string): string[];
  /** Closes the NATS connection, if one was opened. */
  close(): Promise<void>;
}

/** What the API asks of the notification flow beyond reading records. */
export interface NotifyActions {
  /**
   * Sends a test message about the check to every channel of its policy now (one attempt each), or
   * to `only` (a tenant channel's test); answers the records.
   */
  sendTest(tenantId: string, checkId: string, only?: ChannelRecord[]): Promise<DeliveryRecord[]>;
  /** Sends a test message about no check to a tenant channel attached to none (one attempt); answers the record. */
  sendChannelTest(tenantId: string, channel: TenantChannelRecord): Promise<DeliveryRecord>;
  /** Re-sends a failed delivery (a new series of up to 3 attempts); answers the record, now pending. */
  retry(tenantId: string, deliveryId: string): Promise<DeliveryRecord>;
  /** Looks at the entity's truth now (a silence lifted): channels whose last word differs are told (rejudge.ts). */
  rejudge(tenantId: string, entityId: string, by: string): Promise<void>;
}

/** An incident acknowledged in Vigil, for channels whose provider tracks incidents (PagerDuty). */
export interface Acknowledgement {
  deliveryId: string;
  incidentId: string;
  entity: { id: string; name: string };
  /** Who acknowledged, for the provider's log ("key ops-bot", "user ana@example.com"). */
  by: string;
  at: string;
}

/**
 * The status pages showing any of `entityIds` (the holding stage's "status pages affected"): read
 * through the status pages feature (lib/status-pages/feature.ts), which the composition hands in,
 * so notify does not import it.
 */
export type StatusPagesShowing = (
  tenantId: string,
  entityIds: ReadonlySet<string>,
) => Promise<{ slug: string; title: string }[]>;

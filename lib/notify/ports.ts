import type { StateChangeEvent } from '../domain/state-change-event.ts';
import type { ChannelRecord } from './channel-items.ts';
import type { DeliveryKind, DeliveryRecord } from './delivery-items.ts';

/** What a channel is asked to send: the event and what a human message needs. */
export interface Alert {
  event: StateChangeEvent;
  kind: DeliveryKind;
  /** An escalation's whole minutes since the incident opened (unacknowledged all along). */
  unacknowledgedMinutes?: number;
  /** The delivery record's id: the webhook's X-Service-Delivery header, the same on every attempt. */
  deliveryId: string;
  entity: { id: string; name: string; blueprint_slug: string; slug: string };
  /** The check's name: the one given, else derived from its type and target ("HTTP GET api.example.com/health"). */
  checkName: string;
  /** What the check probes, for humans: "GET https://api.example.com/health", "push", "tcp db:5432". */
  checkLabel: string;
  /** The error of the check's latest failed result, if any. */
  lastError: string | null;
  /** Checks that started failing after the entity went down (its open incident's "also failing"). */
  alsoFailing?: string[];
}

/** One attempt's outcome: ok for a 2xx (or a NATS publish the server acknowledged by flush). */
export interface SendOutcome {
  ok: boolean;
  status_code: number | null;
  error: string | null;
}

/** Sends alerts to channels (lib/notify/channels/); every URL passes the SSRF guard at send time. */
export interface ChannelSenders {
  send(channel: ChannelRecord, alert: Alert): Promise<SendOutcome>;
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
  /** Re-sends a failed delivery (a new series of up to 3 attempts); answers the record, now pending. */
  retry(tenantId: string, deliveryId: string): Promise<DeliveryRecord>;
}

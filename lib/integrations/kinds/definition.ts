import type * as z from 'zod';
import type { IncomingAlert, Severity } from './incoming.ts';

/**
 * What an integration kind is (one file per kind, kinds/registry.ts lists them): how it reads a
 * sender's request into outside alerts. A reader parses at the boundary and throws the house's
 * ValidationError (400, naming the JSON path) for a body it cannot read; it never stores.
 */

/** What a reader is given besides the body: the integration's settings and the host's services. */
export interface ReadContext {
  /** The integration's severity words (DECISIONS.md: `severity_map`), keys as the sender writes them. */
  severityMap: Readonly<Record<string, Severity>>;
  /** The kind's own settings, as its `settings` schema parsed them (the generic kind's paths). */
  settings: unknown;
  /** The request's headers, names in lower case. */
  headers: Readonly<Record<string, string | undefined>>;
  /** A PEM certificate at an HTTPS URL, fetched through the egress guard (cloudwatch's SNS signatures). */
  fetchCertificate(url: string): Promise<string>;
  /** The SNS topic a cloudwatch integration confirmed, once it has: messages of any other are refused. */
  snsTopicArn: string | undefined;
  /** Now (a certificate's validity is judged at it). */
  now: Date;
}

/** What one request said. */
export type Reading =
  | { kind: 'alerts'; alerts: IncomingAlert[] }
  /** An SNS subscription to confirm (cloudwatch): its signature verified; the service visits `confirmUrl`. */
  | { kind: 'subscription'; topicArn: string; confirmUrl: string }
  /** A request with nothing to store (an SNS UnsubscribeConfirmation), and why. */
  | { kind: 'nothing'; why: string };

export interface IntegrationKindDefinition {
  kind: string;
  /** The kind's own settings: the request field that holds them and its schema (only the generic kind has any). */
  settings?: { field: string; schema: z.ZodType<Record<string, unknown>> };
  /** Senders name the integration by a routing key in the body (`POST /v2/enqueue`), not by the URL's token. */
  routingKey?: boolean;
  /** The request's body, already parsed as JSON (bounded to 512 KB by the route). */
  read(body: unknown, context: ReadContext): Promise<Reading>;
}

import type * as z from 'zod';
import { ConfigApplyError, SECRET_PLACEHOLDER } from '../../config-doc/kind.ts';
import { envReferenceSchema } from '../../config-doc/secrets.ts';
import { documentChannelSchemas } from '../../notify/schemas.ts';

/**
 * Where a document's channels point, shared by the channels kind (kinds/channels.ts) and a check's
 * own policy (check-policy.ts): the channel schemas of the document, and how two destinations
 * compare when a stored secret reads as `********`.
 */

/**
 * A channel of the document, a tenant one or a check's own: the API's create body, each secret
 * field also taking an unset `${ENV}` reference (a plan of an export names no secret; a create
 * holding one fails, an update keeps the stored secret).
 */
export const CHANNEL_DOC_SCHEMAS = documentChannelSchemas(envReferenceSchema);

export type ChannelDoc = z.output<typeof CHANNEL_DOC_SCHEMAS.tenantChannel>;

/** A channel's destination as a document or a policy holds it: type, config and template. */
export interface Destination {
  channel_type: string;
  config: Record<string, unknown>;
  template?: unknown;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Equal as JSON values; a `********` on either side (a stored secret, or one to keep) equals anything. */
export function sameSetting(a: unknown, b: unknown): boolean {
  if (a === SECRET_PLACEHOLDER || b === SECRET_PLACEHOLDER) return true;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((x, i) => sameSetting(x, b[i]));
  if (isRecord(a) && isRecord(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((key) => sameSetting(a[key], b[key]));
  }
  return a === b;
}

/** The destination part of a channel as the API shows it (no ids, no email recipient states). */
export function destinationOf(view: Destination): Destination {
  return {
    channel_type: view.channel_type,
    config: view.config,
    ...(view.template === undefined ? {} : { template: view.template }),
  };
}

/**
 * Refuses to add a check's own channel whose secret the document leaves as `********` (its
 * `${ENV}` was not set): a new channel has no stored secret to keep, and the API would store the
 * placeholder itself.
 */
export function requireSecretsGiven(what: string, destination: Destination): void {
  const path = Object.entries(destination.config).find(([, value]) => value === SECRET_PLACEHOLDER)?.[0];
  if (path === undefined) return;
  const error = `${what}: config.${path} must be given (its \${ENV} is not set) to add this channel again, since a check's channels are replaced, not updated`;
  throw new ConfigApplyError({ status: 400, body: { error } });
}

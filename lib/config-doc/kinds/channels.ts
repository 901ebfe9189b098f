import type * as z from 'zod';
import { documentChannelSchemas } from '../../notify/schemas.ts';
import {
  type Api,
  ConfigApplyError,
  defineKind,
  expectOk,
  postNew,
  SECRET_PLACEHOLDER,
  seg,
} from '../kind.ts';
import { envReferenceSchema } from '../secrets.ts';

/**
 * The tenant's shared channels (`/v1/notify/channels`), identified by `name`: the create body
 * `{name, channel_type, config, template?}` as it is. Secrets read back as `********`.
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

interface ChannelView extends Destination {
  id: string;
  check_id: string | null;
  name?: string;
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

/** Every tenant channel (the list pages through check channels and tenant channels alike). */
async function readTenantChannels(api: Api): Promise<(ChannelView & { name: string })[]> {
  const found: (ChannelView & { name: string })[] = [];
  let cursor: string | undefined;
  do {
    const page = await expectOk<{ channels: ChannelView[]; next_cursor: string | null }>(api, {
      method: 'GET',
      path: '/v1/notify/channels',
      query: { limit: '200', ...(cursor ? { cursor } : {}) },
    });
    for (const channel of page.channels)
      if (channel.check_id === null) found.push({ ...channel, name: channel.name ?? '' });
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return found;
}

export const channelsKind = defineKind<ChannelDoc>({
  key: 'channels',
  noun: 'channel',
  schema: CHANNEL_DOC_SCHEMAS.tenantChannel,
  identity: (doc) => doc.name,
  references: () => [],

  async read(api) {
    const channels = await readTenantChannels(api);
    return channels.map((channel) => ({
      id: channel.id,
      doc: { name: channel.name, ...destinationOf(channel) } as ChannelDoc,
    }));
  },

  async create(api, doc) {
    return (await postNew<{ id: string }>(api, '/v1/notify/channels', doc)).id;
  },

  async update(api, current, doc) {
    const body: Record<string, unknown> = {};
    const was = current.doc as Destination;
    const next = doc as Destination;
    // A secret left as `********` (an unset `${ENV}`) keeps the stored one: the API's update rule.
    if (was.channel_type !== next.channel_type || !sameSetting(was.config, next.config)) {
      body.channel_type = next.channel_type;
      body.config = next.config;
    }
    if (!sameSetting(was.template, next.template)) body.template = next.template ?? null;
    if (Object.keys(body).length === 0) return;
    await expectOk(api, { method: 'PUT', path: `/v1/notify/channels/${seg(current.id)}`, body });
  },

  async remove(api, current) {
    await expectOk(api, { method: 'DELETE', path: `/v1/notify/channels/${seg(current.id)}` });
  },
});

import { type Api, defineKind, expectOk, postNew, seg } from '../../config-doc/kind.ts';
import {
  CHANNEL_DOC_SCHEMAS,
  type ChannelDoc,
  type Destination,
  destinationOf,
  sameSetting,
} from './destinations.ts';

declare module '../../config-doc/kind.ts' {
  interface DocLists {
    channels: true;
  }
}

/**
 * The tenant's shared channels (`/v1/notify/channels`), identified by `name`: the create body
 * `{name, channel_type, config, template?}` as it is. Secrets read back as `********`.
 */

interface ChannelView extends Destination {
  id: string;
  check_id: string | null;
  name?: string;
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
  // The catalog's lists come first.
  after: ['relations'],
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

import * as z from 'zod';
import { type Api, ConfigApplyError, expectOk, type NameIndex, seg } from '../../config-doc/kind.ts';
import { POLICY_DEFAULTS, policyBody } from '../../notify/schemas.ts';
import {
  CHANNEL_DOC_SCHEMAS,
  type Destination,
  destinationOf,
  requireSecretsGiven,
  sameSetting,
} from './destinations.ts';

/**
 * A check's notification policy in the document (the `policy` of a check, ./checks.ts): the fields POST /v1/checks/{id}/policy takes, with their defaults, and its channels:
 * the check's own (`{channel_type, config, template?}`) and tenant channels by name
 * (`{channel: <name>}`), own ones first as the API lists them.
 */

const fields = policyBody.shape;
const sharedChannelSchema = z.strictObject({
  channel: z.string().min(1).meta({ description: 'A tenant channel (the document’s channels), by name' }),
});

const POLICY_FIELDS = [
  'cooldown_seconds',
  'notify_on_recovery',
  'silenced',
  'repeat_interval_seconds',
  'suppress_when_upstream_down',
  'flap_changes',
  'flap_window_seconds',
  'flap_settle_seconds',
] as const;

const policyChannelSchema = z.union([sharedChannelSchema, CHANNEL_DOC_SCHEMAS.channel]);
type PolicyChannel = z.output<typeof policyChannelSchema>;

export const policyDocSchema = z
  .strictObject({
    cooldown_seconds: fields.cooldown_seconds.default(POLICY_DEFAULTS.cooldown_seconds),
    notify_on_recovery: fields.notify_on_recovery.default(POLICY_DEFAULTS.notify_on_recovery),
    silenced: fields.silenced.default(POLICY_DEFAULTS.silenced),
    repeat_interval_seconds: fields.repeat_interval_seconds.default(POLICY_DEFAULTS.repeat_interval_seconds),
    suppress_when_upstream_down: fields.suppress_when_upstream_down.default(
      POLICY_DEFAULTS.suppress_when_upstream_down,
    ),
    flap_changes: fields.flap_changes.default(POLICY_DEFAULTS.flap_changes),
    flap_window_seconds: fields.flap_window_seconds.default(POLICY_DEFAULTS.flap_window_seconds),
    flap_settle_seconds: fields.flap_settle_seconds.default(POLICY_DEFAULTS.flap_settle_seconds),
    channels: z
      .array(policyChannelSchema)
      .default(() => [])
      .meta({ description: 'The check’s own channels, then tenant channels by name ({channel})' }),
  })
  // A function, so each parse gets lists of its own (zod copies a default one level deep only).
  .default(() => ({ ...POLICY_DEFAULTS, channels: [] as PolicyChannel[] }))
  .meta({ description: 'The check’s notification policy; absent: the defaults, no channels' });
export type PolicyDoc = z.output<typeof policyDocSchema>;

interface PolicyView extends Record<(typeof POLICY_FIELDS)[number], unknown> {
  channels: (Destination & { id: string; check_id: string | null; name?: string })[];
}

const policyPath = (checkId: string) => `/v1/checks/${seg(checkId)}/policy`;

/** The check's policy as the API shows it (the defaults while none was set). */
export const readPolicyView = (api: Api, checkId: string) =>
  expectOk<PolicyView>(api, { method: 'GET', path: policyPath(checkId) });

/** One channel of a policy view in document form: a tenant channel by its name in the index (else the API's). */
function channelDocOf(channel: PolicyView['channels'][number], names: NameIndex): PolicyChannel {
  if (channel.check_id !== null) return destinationOf(channel) as PolicyChannel;
  return { channel: names.identity('channels', channel.id) ?? channel.name ?? channel.id };
}

/** A policy view in document form. */
export function policyDocOf(view: PolicyView, names: NameIndex): PolicyDoc {
  const doc = Object.fromEntries(POLICY_FIELDS.map((field) => [field, view[field]]));
  return { ...doc, channels: view.channels.map((channel) => channelDocOf(channel, names)) } as PolicyDoc;
}

const sameChannel = (a: PolicyChannel, b: PolicyChannel) =>
  'channel' in a || 'channel' in b
    ? 'channel' in a && 'channel' in b && a.channel === b.channel
    : a.channel_type === b.channel_type &&
      sameSetting(a.config, b.config) &&
      sameSetting(a.template, b.template);

/** The body that adds a policy channel: a destination, or the tenant channel's id. */
function channelBody(channel: PolicyChannel, names: NameIndex, what: string): unknown {
  if (!('channel' in channel)) {
    requireSecretsGiven(what, channel as Destination);
    return channel;
  }
  const id = names.id('channels', channel.channel);
  if (id === undefined)
    throw new ConfigApplyError({
      status: 400,
      body: { error: `no channel ${channel.channel} in the tenant` },
    });
  return { channel_id: id };
}

/**
 * Brings the check's policy from `current` (the API's view) to `doc`: the changed fields in one
 * call, then channels the document no longer has removed and its new ones added.
 */
export async function writePolicy(
  api: Api,
  checkId: string,
  current: PolicyView | undefined,
  doc: PolicyDoc,
  names: NameIndex,
  what: string,
): Promise<void> {
  const before = current ?? { ...POLICY_DEFAULTS, channels: [] };
  const changed = POLICY_FIELDS.filter((field) => !sameSetting(before[field], doc[field]));
  if (changed.length > 0) {
    const body = Object.fromEntries(changed.map((field) => [field, doc[field]]));
    await expectOk(api, { method: 'POST', path: policyPath(checkId), body });
  }
  // Each channel the check has stays when the document still has it (matched once), else goes.
  const kept = new Set<number>();
  for (const view of current?.channels ?? []) {
    const was = channelDocOf(view, names);
    const index = doc.channels.findIndex((channel, i) => !kept.has(i) && sameChannel(was, channel));
    if (index >= 0) kept.add(index);
    else await expectOk(api, { method: 'DELETE', path: `${policyPath(checkId)}/channels/${seg(view.id)}` });
  }
  for (const [index, channel] of doc.channels.entries()) {
    if (kept.has(index)) continue;
    const body = channelBody(channel, names, what);
    await expectOk(api, { method: 'POST', path: `${policyPath(checkId)}/channels`, body });
  }
}

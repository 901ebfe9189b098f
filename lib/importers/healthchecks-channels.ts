import { envName, envRef } from './import-common.ts';

/**
 * Healthchecks integrations as shared Vigil channels. The Management API answers only an
 * integration's `{id, name, kind}` (hc/api/models.py Channel.to_dict), never its settings, so
 * every config value of a mapped channel is a `${ENV}` reference named after the channel
 * (`HC_OPS_SLACK_URL`), and a line says which variables to set before plan and apply.
 */

/** A Healthchecks integration as the API lists it. */
export interface HcChannel {
  id: string;
  name: string;
  kind: string;
}

/** Vigil's type for a Healthchecks kind, and the config keys (each an `${ENV}` reference) it needs. */
const KINDS: Record<string, { type: string; keys: string[]; fixed?: Record<string, unknown> }> = {
  email: { type: 'email', keys: [] },
  webhook: { type: 'webhook', keys: ['url'] },
  slack: { type: 'slack', keys: ['url'] },
  discord: { type: 'discord', keys: ['url'] },
  mattermost: { type: 'mattermost', keys: ['url'] },
  msteams: { type: 'teams', keys: ['url'] },
  msteamsw: { type: 'teams', keys: ['url'] },
  telegram: { type: 'telegram', keys: ['bot_token', 'chat_id'] },
  // Region and priorities at the API's defaults, written out as the API reads them back.
  pd: { type: 'pagerduty', keys: ['routing_key'], fixed: { region: 'us' } },
  opsgenie: {
    type: 'opsgenie',
    keys: ['api_key'],
    fixed: { region: 'us', priorities: { down: 'P1', degraded: 'P3' } },
  },
  po: { type: 'pushover', keys: ['app_token', 'user_key'] },
  matrix: { type: 'matrix', keys: ['homeserver', 'access_token', 'room_id'] },
  gotify: { type: 'gotify', keys: ['url', 'token'] },
  ntfy: { type: 'ntfy', keys: ['url'] },
  sms: { type: 'sms', keys: ['account_sid', 'auth_token', 'from'], fixed: { provider: 'twilio' } },
};

export interface HcChannels {
  channels: Record<string, unknown>[];
  /** The Vigil channel's name by Healthchecks integration id. */
  names: Map<string, string>;
  unmapped: string[];
}

/** The integrations Vigil has a type for as shared channels; a line for each other one. */
export function healthchecksChannels(list: readonly HcChannel[]): HcChannels {
  const out: HcChannels = { channels: [], names: new Map(), unmapped: [] };
  const taken = new Set<string>();
  for (const [index, channel] of list.entries()) {
    const label = `integration "${channel.name || channel.id}" (${channel.kind})`;
    const map = KINDS[channel.kind];
    if (!map) {
      out.unmapped.push(`${label}: Vigil has no ${channel.kind} channel type`);
      continue;
    }
    let name = (channel.name.trim() || `healthchecks-${channel.kind}-${index + 1}`).slice(0, 100);
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${name.slice(0, 95)} (${n})`;
    taken.add(name.toLowerCase());
    const variable = (key: string) => envName('HC', name, key);
    const config: Record<string, unknown> = { ...map.fixed };
    for (const key of map.keys) config[key] = envRef(variable(key));
    // Email and SMS take lists of recipients: one variable holds the one address Healthchecks had.
    if (map.type === 'email' || map.type === 'sms') config.to = [envRef(variable('to'))];
    const variables = [...map.keys, ...('to' in config ? ['to'] : [])].map(variable);
    out.channels.push({ name, channel_type: map.type, config });
    out.names.set(channel.id, name);
    out.unmapped.push(
      `${label}: the API does not show its settings; set ${variables.join(', ')} in the environment of plan and apply`,
    );
  }
  return out;
}

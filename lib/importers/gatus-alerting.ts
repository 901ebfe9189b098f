import {
  asRecord,
  channelReference,
  envName,
  envRef,
  goDurationSeconds,
  referencedEnv,
} from './import-common.ts';

/**
 * Gatus's `alerting` providers (alerting/provider/*: each provider's yaml keys) as shared Vigil
 * channels, and an endpoint's `alerts` as its check's thresholds and notification policy
 * referring to them. A secret is never copied: the channel holds a `${ENV}` reference, Gatus's own
 * `${VAR}` when the config used one, else a name made of the provider and the key, and a line
 * says which variable to set.
 */

/** A Gatus key of a provider: the Vigil config key it fills and whether its value is a secret. */
interface Field {
  to: string;
  secret?: boolean;
  /** Makes the Vigil value of Gatus's (a telegram chat id may be a number). */
  as?: (value: unknown) => unknown;
}
interface ProviderMap {
  type: string;
  fields: Record<string, Field>;
  /** Values Gatus uses when the key is absent. */
  defaults?: Record<string, unknown>;
  /** Joins or reshapes the mapped fields into the type's config (ntfy's url and topic). */
  finish?: (config: Record<string, unknown>) => Record<string, unknown>;
}

const webhookUrl = { 'webhook-url': { to: 'url', secret: true } };
const asText = (value: unknown) => String(value);

/** The providers Vigil has a channel type for (lib/notify/channels/registry.ts). */
const PROVIDERS: Record<string, ProviderMap> = {
  slack: { type: 'slack', fields: webhookUrl },
  discord: { type: 'discord', fields: webhookUrl },
  teams: { type: 'teams', fields: webhookUrl },
  'teams-workflows': { type: 'teams', fields: webhookUrl },
  googlechat: { type: 'google_chat', fields: webhookUrl },
  mattermost: { type: 'mattermost', fields: { ...webhookUrl, channel: { to: 'channel' } } },
  // PagerDuty's and Opsgenie's region and priorities are written out at the API's defaults (as
  // it reads them back, so a second plan is empty): Gatus uses the US endpoints and Opsgenie's
  // own priority (P1) unless told otherwise.
  pagerduty: {
    type: 'pagerduty',
    fields: { 'integration-key': { to: 'routing_key', secret: true } },
    finish: (config) => ({ ...config, region: 'us' }),
  },
  opsgenie: {
    type: 'opsgenie',
    fields: { 'api-key': { to: 'api_key', secret: true } },
    finish: (config) => ({ ...config, region: 'us', priorities: { down: 'P1', degraded: 'P3' } }),
  },
  telegram: {
    type: 'telegram',
    fields: { token: { to: 'bot_token', secret: true }, id: { to: 'chat_id', as: asText } },
  },
  pushover: {
    type: 'pushover',
    fields: {
      'application-token': { to: 'app_token', secret: true },
      'user-key': { to: 'user_key', secret: true },
      priority: { to: 'priority' },
    },
  },
  gotify: {
    type: 'gotify',
    fields: {
      'server-url': { to: 'url' },
      token: { to: 'token', secret: true },
      priority: { to: 'priority' },
    },
  },
  matrix: {
    type: 'matrix',
    fields: {
      'server-url': { to: 'homeserver' },
      'access-token': { to: 'access_token', secret: true },
      'internal-room-id': { to: 'room_id' },
    },
    defaults: { 'server-url': 'https://matrix-client.matrix.org' },
  },
  ntfy: {
    type: 'ntfy',
    fields: { url: { to: 'url' }, topic: { to: 'topic' }, token: { to: 'token', secret: true } },
    defaults: { url: 'https://ntfy.sh' },
    finish: ({ url, topic, ...rest }) => ({
      url: `${String(url).replace(/\/+$/, '')}/${String(topic)}`,
      ...rest,
    }),
  },
  email: {
    type: 'email',
    fields: {
      to: {
        to: 'to',
        as: (v) =>
          String(v)
            .split(',')
            .map((a) => a.trim()),
      },
    },
  },
  custom: { type: 'webhook', fields: { url: { to: 'url' } } },
  twilio: {
    type: 'sms',
    fields: {
      sid: { to: 'account_sid' },
      token: { to: 'auth_token', secret: true },
      from: { to: 'from' },
      to: { to: 'to', as: (v) => [String(v)] },
    },
    defaults: {},
    finish: (config) => ({ provider: 'twilio', ...config }),
  },
};

/** Keys a provider has that are read elsewhere (the endpoints' alerts read `default-alert`). */
const READ_ELSEWHERE = new Set(['default-alert']);

export interface GatusChannels {
  /** Shared channels of the document, one per mapped provider. */
  channels: Record<string, unknown>[];
  /** The channel's name by Gatus provider, for the endpoints' alerts. */
  names: Map<string, string>;
  /** Each provider's `default-alert`, which an endpoint's alert of its type starts from. */
  defaults: Map<string, Record<string, unknown>>;
  unmapped: string[];
}

/** The `alerting` section's providers as channels. */
export function gatusChannels(alerting: unknown): GatusChannels {
  const out: GatusChannels = { channels: [], names: new Map(), defaults: new Map(), unmapped: [] };
  const providers = asRecord(alerting);
  if (alerting !== undefined && !providers) out.unmapped.push('alerting: not a mapping, left out');
  for (const [provider, raw] of Object.entries(providers ?? {})) {
    const settings = asRecord(raw) ?? {};
    const defaults = asRecord(settings['default-alert']);
    if (defaults) out.defaults.set(provider, defaults);
    const map = PROVIDERS[provider];
    if (!map) {
      out.unmapped.push(`alerting.${provider}: Vigil has no ${provider} channel type`);
      continue;
    }
    const name = `gatus-${provider}`;
    const config: Record<string, unknown> = {};
    const merged = { ...map.defaults, ...settings };
    for (const [key, value] of Object.entries(merged)) {
      const field = map.fields[key];
      if (!field) {
        if (!READ_ELSEWHERE.has(key))
          out.unmapped.push(`alerting.${provider}.${key}: Vigil's ${map.type} channel has no equivalent`);
        continue;
      }
      config[field.to] = field.secret
        ? secretRef(`alerting.${provider}.${key}`, provider, key, value, out.unmapped)
        : typeof value === 'string' && referencedEnv(value)
          ? envRef(referencedEnv(value) ?? '')
          : (field.as ?? ((v: unknown) => v))(value);
    }
    for (const [key, field] of Object.entries(map.fields)) {
      if (field.secret && !(key in merged)) {
        config[field.to] = secretRef(`alerting.${provider}.${key}`, provider, key, undefined, out.unmapped);
      }
    }
    out.channels.push({ name, channel_type: map.type, config: map.finish ? map.finish(config) : config });
    out.names.set(provider, name);
  }
  return out;
}

/** A secret's `${ENV}` reference: Gatus's own when it used one, else one named after where it was. */
function secretRef(path: string, provider: string, key: string, value: unknown, unmapped: string[]): string {
  const own = referencedEnv(value);
  if (own) return envRef(own);
  const name = envName('GATUS', provider, key);
  unmapped.push(`${path}: a secret, not copied; set ${name} in the environment of plan and apply`);
  return envRef(name);
}

/** What an endpoint's alerts make of its check: thresholds and the notification policy. */
export interface AlertSettings {
  failure_threshold?: number;
  success_threshold?: number;
  policy?: Record<string, unknown>;
}

const ALERT_KEYS = new Set([
  'type',
  'enabled',
  'failure-threshold',
  'success-threshold',
  'send-on-resolved',
  'description',
  'minimum-reminder-interval',
  'provider-override',
]);

/**
 * An endpoint's `alerts` (each merged over its provider's default-alert, Gatus's defaults
 * failure-threshold 3, success-threshold 2, send-on-resolved false): the check takes the first
 * alert's thresholds (Vigil has one pair per check), and its policy refers to every alert's channel.
 * `failureDefault` stands for a failure-threshold no alert gives (an external endpoint's push
 * check passes 1: a heartbeat is down on its first failure, DECISIONS.md "Heartbeat defaults").
 */
export function alertSettings(
  alerts: unknown,
  path: string,
  channels: GatusChannels,
  unmapped: string[],
  failureDefault = 3,
): AlertSettings {
  if (alerts === undefined) return {};
  if (!Array.isArray(alerts)) {
    unmapped.push(`${path}: not a list, left out`);
    return {};
  }
  const settings: AlertSettings = {};
  const referenced: string[] = [];
  let recovery: boolean | undefined;
  let repeat: number | undefined;
  for (const [index, raw] of alerts.entries()) {
    const at = `${path}[${index}]`;
    const given = asRecord(raw) ?? {};
    const type = String(given.type ?? '');
    const alert = { ...channels.defaults.get(type), ...given };
    if (alert.enabled === false) {
      unmapped.push(`${at}: disabled in Gatus, left out`);
      continue;
    }
    const name = channels.names.get(type);
    if (!name) {
      unmapped.push(`${at}: no channel for alert type "${type}" (see alerting.${type})`);
      continue;
    }
    for (const key of Object.keys(alert)) {
      if (!ALERT_KEYS.has(key)) unmapped.push(`${at}.${key}: unknown alert key, left out`);
    }
    if (alert.description !== undefined)
      unmapped.push(`${at}.description: Vigil's alerts carry no per-check text`);
    if (alert['provider-override'] !== undefined)
      unmapped.push(`${at}.provider-override: Vigil has no per-check override of a shared channel`);
    const failure = Number(alert['failure-threshold'] ?? failureDefault);
    const success = Number(alert['success-threshold'] ?? 2);
    if (settings.failure_threshold === undefined) {
      settings.failure_threshold = Math.min(100, Math.max(1, failure));
      settings.success_threshold = Math.min(10, Math.max(1, success));
    } else if (failure !== settings.failure_threshold || success !== settings.success_threshold) {
      unmapped.push(
        `${at}: thresholds differ from the first alert's; a Vigil check has one pair (the first kept)`,
      );
    }
    const resolved = alert['send-on-resolved'] === true;
    if (recovery !== undefined && recovery !== resolved) {
      unmapped.push(
        `${at}.send-on-resolved: differs from the first alert's; Vigil's policy has one (the first kept)`,
      );
    }
    recovery ??= resolved;
    const reminder = goDurationSeconds(alert['minimum-reminder-interval']);
    if (reminder !== undefined && reminder > 0)
      repeat ??= Math.min(86_400, Math.max(60, Math.round(reminder)));
    if (!referenced.includes(name)) referenced.push(name);
  }
  if (referenced.length > 0) {
    settings.policy = {
      notify_on_recovery: recovery ?? false,
      ...(repeat === undefined ? {} : { repeat_interval_seconds: repeat }),
      channels: referenced.map(channelReference),
    };
  }
  return settings;
}

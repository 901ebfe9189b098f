import { type KumaContext, type Loose, num, text } from './kuma-context.ts';

/**
 * Kuma notifications → the document's shared `channels`. A notification's settings are the JSON
 * of its form (`config`, keyed by each provider's field names in Kuma's
 * server/notification-providers/*.js); each type Vigil has maps to its channel config
 * (lib/notify/channels/), every secret as a `${ENV}` reference, and every setting Vigil has no
 * place for is one unmapped line.
 */

/** A notification as Kuma's backup (notificationList) and its `notification` table hold it. */
export interface KumaNotification {
  id: number;
  name: string;
  active?: unknown;
  /** The provider's settings, a JSON text (`{"type": "slack", "slackwebhookURL": …}`). */
  config: string;
}

export interface MappedChannel {
  name: string;
  channel_type: string;
  config: Loose;
}

type Mapper = (
  c: Loose,
  secret: (field: string, what: string) => string,
  left: (line: string) => void,
) => Loose;

/** Kuma settings of a type that Vigil has no place for, by type: `[field, what it did]`. */
const LEFT_OUT: Record<string, [string, string][]> = {
  webhook: [
    ['webhookAdditionalHeaders', 'additional headers'],
    ['webhookCustomBody', 'a custom body (Vigil sends its event JSON)'],
  ],
  slack: [
    ['slackchannel', 'the channel override'],
    ['slackusername', 'the user name'],
    ['slackiconemo', 'the icon'],
  ],
  discord: [
    ['discordUsername', 'the user name'],
    ['discordPrefixMessage', 'the prefix message'],
  ],
  mattermost: [
    ['mattermostusername', 'the user name'],
    ['mattermosticonemo', 'the icon'],
    ['mattermosticonurl', 'the icon URL'],
  ],
  telegram: [
    ['telegramMessageThreadID', 'the message thread'],
    ['telegramSendSilently', 'silent sending'],
    ['telegramProtectContent', 'content protection'],
  ],
  PagerDuty: [
    ['pagerdutyPriority', 'the severity (Vigil sends critical for down)'],
    ['pagerdutyAutoResolve', 'the auto-resolve choice (Vigil resolves on recovery)'],
  ],
  pushover: [
    ['pushoversounds', 'the sound'],
    ['pushoverdevice', 'the device'],
    ['pushovertitle', 'the title'],
    ['pushoverttl', 'the message time to live'],
  ],
  smtp: [
    ['smtpCC', 'the CC addresses'],
    ['smtpBCC', 'the BCC addresses'],
    ['smtpHost', 'its own mail server (Vigil sends through the server it is configured with)'],
    ['customSubject', 'the custom subject'],
  ],
  ntfy: [
    ['ntfyPriority', 'the priority'],
    ['ntfyIcon', 'the icon'],
  ],
};

const urlSecret = (field: string, what: string) => (c: Loose, secret: (f: string, w: string) => string) => ({
  url: text(c[field]) === undefined ? undefined : secret('url', what),
});

/** The Kuma types Vigil has, by Kuma's type name: the Vigil type and how the config maps. */
const CHANNELS: Record<string, { type: string; map: Mapper }> = {
  // A generic webhook's URL is the receiver's address, no credential: it stays in the document.
  webhook: {
    type: 'webhook',
    map: (c, _secret, left) => {
      const format = text(c.webhookContentType);
      if (format && format !== 'json')
        left(`the ${format} body format is not kept (Vigil posts its event as JSON)`);
      return { url: text(c.webhookURL) };
    },
  },
  // Chat webhooks carry their credential in the URL itself, so the URL is the secret.
  slack: { type: 'slack', map: urlSecret('slackwebhookURL', 'the Slack incoming webhook URL') },
  discord: { type: 'discord', map: urlSecret('discordWebhookUrl', 'the Discord webhook URL') },
  teams: {
    type: 'teams',
    map: (c, secret, left) => {
      left(
        'its URL may need replacing: Vigil posts to a Teams Workflows webhook, not an Office 365 connector',
      );
      return urlSecret('webhookUrl', 'the Microsoft Teams webhook URL')(c, secret);
    },
  },
  GoogleChat: { type: 'google_chat', map: urlSecret('googleChatWebhookURL', 'the Google Chat webhook URL') },
  mattermost: {
    type: 'mattermost',
    map: (c, secret) => ({
      ...urlSecret('mattermostWebhookUrl', 'the Mattermost incoming webhook URL')(c, secret),
      channel: text(c.mattermostchannel),
    }),
  },
  telegram: {
    type: 'telegram',
    map: (c, secret) => ({
      bot_token: secret('bot_token', 'the Telegram bot token'),
      chat_id: text(c.telegramChatID),
    }),
  },
  PagerDuty: {
    type: 'pagerduty',
    map: (c, secret) => ({
      routing_key: secret('routing_key', 'the PagerDuty integration key'),
      // Written out even at its default, as the API reads it back, so a second plan is empty.
      region: String(c.pagerdutyIntegrationUrl ?? '').includes('.eu.') ? 'eu' : 'us',
    }),
  },
  Opsgenie: {
    type: 'opsgenie',
    map: (c, secret) => {
      const priority = num(c.opsgeniePriority);
      return {
        api_key: secret('api_key', 'the Opsgenie API key'),
        // Region and priorities written out even at their defaults (us, P1, P3), as the API reads
        // them back, so a second plan is empty.
        region: c.opsgenieRegion === 'eu' ? 'eu' : 'us',
        priorities: {
          down: priority && priority >= 1 && priority <= 5 ? `P${priority}` : 'P1',
          degraded: 'P3',
        },
      };
    },
  },
  pushover: {
    type: 'pushover',
    map: (c, secret, left) => {
      const priority = num(c.pushoverpriority);
      if (priority !== undefined && (priority < -2 || priority > 2))
        left(`the priority ${priority} is not kept (Vigil takes -2 to 2)`);
      return {
        app_token: secret('app_token', 'the Pushover application token'),
        user_key: secret('user_key', 'the Pushover user key'),
        ...(priority !== undefined && priority >= -2 && priority <= 2 ? { priority } : {}),
      };
    },
  },
  gotify: {
    type: 'gotify',
    map: (c, secret) => {
      const priority = num(c.gotifyPriority);
      return {
        url: text(c.gotifyserverurl),
        token: secret('token', 'the Gotify application token'),
        ...(priority !== undefined && priority >= 0 && priority <= 10 ? { priority } : {}),
      };
    },
  },
  matrix: {
    type: 'matrix',
    map: (c, secret) => ({
      homeserver: text(c.homeserverUrl),
      room_id: text(c.internalRoomId),
      access_token: secret('access_token', 'the Matrix access token'),
    }),
  },
  smtp: {
    type: 'email',
    map: (c) => ({
      to: (text(c.smtpTo) ?? '')
        .split(/[,;]/)
        .map((address) => address.trim())
        .filter(Boolean),
    }),
  },
  ntfy: {
    type: 'ntfy',
    map: (c, secret, left) => {
      const server = (text(c.ntfyserverurl) ?? 'https://ntfy.sh').replace(/\/+$/, '');
      const method = text(c.ntfyAuthenticationMethod);
      if (method === 'usernamePassword')
        left('user name and password sign-in is not kept (Vigil sends an access token)');
      return {
        url: `${server}/${encodeURIComponent(text(c.ntfytopic) ?? '')}`,
        ...(method === 'accessToken' ? { token: secret('token', 'the ntfy access token') } : {}),
      };
    },
  },
};

/** Maps the notifications; answers the channels and, by Kuma notification id, each channel's name. */
export function convertNotifications(
  notifications: KumaNotification[],
  ctx: KumaContext,
): { channels: MappedChannel[]; names: Map<number, string> } {
  const channels: MappedChannel[] = [];
  const names = new Map<number, string>();
  const taken = new Set<string>();
  for (const notification of notifications) {
    const label = `notification "${notification.name}"`;
    let config: Loose;
    try {
      config = JSON.parse(notification.config || '{}') as Loose;
    } catch {
      ctx.skip(`${label}: its settings are not JSON`);
      continue;
    }
    const kumaType = String(config.type ?? '');
    const known = CHANNELS[kumaType];
    if (!known) {
      ctx.skip(`${label} (type ${kumaType || 'unknown'}): Vigil has no ${kumaType || 'such'} channel`);
      continue;
    }
    let name = notification.name.trim().slice(0, 100) || `kuma-${notification.id}`;
    if (taken.has(name)) name = `${name.slice(0, 90)} (${notification.id})`;
    taken.add(name);
    const left = (line: string) => ctx.skip(`${label}: ${line}`);
    const mapped = known.map(config, (field, what) => ctx.secret(name, field, `${what} of ${label}`), left);
    for (const [field, what] of LEFT_OUT[kumaType] ?? []) {
      if (text(config[field]) !== undefined && config[field] !== false) left(`${what} is not kept`);
    }
    if (notification.active !== undefined && notification.active !== null && !notAFlag(notification.active)) {
      ctx.skip(`${label}: it is turned off in Kuma; Vigil's channel is active`);
    }
    channels.push({ name, channel_type: known.type, config: withoutUndefined(mapped) });
    names.set(Number(notification.id), name);
  }
  return { channels, names };
}

/** Whether a notification's `active` says on (true, 1, "1"). */
const notAFlag = (value: unknown) => value === true || value === 1 || value === '1';

function withoutUndefined(record: Loose): Loose {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}

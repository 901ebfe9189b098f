import type { Schemas } from '../../api/client';
import { discordForm } from './discord';
import { emailForm } from './email';
import type { ChannelForm } from './form';
import { googleChatForm } from './google-chat';
import { matrixForm } from './matrix';
import { mattermostForm } from './mattermost';
import { natsForm } from './nats';
import { ntfyForm } from './ntfy';
import { slackForm } from './slack';
import { teamsForm } from './teams';
import { webhookForm } from './webhook';

/** A channel type as the API document names it. */
export type ChannelType = Schemas['NotificationChannel']['channel_type'];

/**
 * Every channel type's form, in the order the type select offers them (the first is a new
 * channel's default). Typed against the API document's types: `tsc -p web` fails until a type the
 * API gained has its form here (CONTRIBUTING.md "Adding a channel type").
 */
export const CHANNEL_FORMS = {
  webhook: webhookForm,
  slack: slackForm,
  discord: discordForm,
  ntfy: ntfyForm,
  nats: natsForm,
  email: emailForm,
  teams: teamsForm,
  google_chat: googleChatForm,
  mattermost: mattermostForm,
  matrix: matrixForm,
} satisfies Record<ChannelType, ChannelForm>;

/** The types, in the select's order. */
export const CHANNEL_TYPES = Object.keys(CHANNEL_FORMS) as [ChannelType, ...ChannelType[]];

/** A type's form. */
export function channelForm(type: ChannelType): ChannelForm {
  return CHANNEL_FORMS[type];
}

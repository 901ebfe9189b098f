import type { Schemas } from '../../api/client';
import { discordForm } from './discord';
import { emailForm } from './email';
import type { ChannelForm, ProviderForm } from './form';
import { googleChatForm } from './google-chat';
import { gotifyForm } from './gotify';
import { matrixForm } from './matrix';
import { mattermostForm } from './mattermost';
import { natsForm } from './nats';
import { ntfyForm } from './ntfy';
import { opsgenieForm } from './opsgenie';
import { pagerdutyForm } from './pagerduty';
import { pushoverForm } from './pushover';
import { slackForm } from './slack';
import { smsForm } from './sms';
import { teamsForm } from './teams';
import { telegramForm } from './telegram';
import { webhookForm } from './webhook';

/** A channel type as the API document names it. */
export type ChannelType = Schemas['NotificationChannel']['channel_type'];

/**
 * Every messaging provider's form, by the provider's name (its channel type's, as the API names
 * it), one line each (CONTRIBUTING.md "Adding a messaging provider"). The channel types' forms are
 * those with fields, in this order, the order the type select offers them (the first is a new
 * channel's default); ../../contacts/contact-kinds.ts gathers the contact method kinds from their
 * `people`.
 */
export const PROVIDER_FORMS = {
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
  pagerduty: pagerdutyForm,
  opsgenie: opsgenieForm,
  telegram: telegramForm,
  pushover: pushoverForm,
  gotify: gotifyForm,
  sms: smsForm,
} satisfies Record<string, ProviderForm>;

type Forms = typeof PROVIDER_FORMS;

/** The providers with a channel type: their forms. */
type ChannelForms = { [K in keyof Forms as Forms[K] extends ChannelForm ? K : never]: Forms[K] };

/**
 * Compiles only while the providers' channel forms are exactly the API document's channel types:
 * `tsc -p web` fails until a type the API gained has its form here.
 */
const EVERY_TYPE_HAS_A_FORM: [ChannelType] extends [keyof ChannelForms]
  ? [keyof ChannelForms] extends [ChannelType]
    ? true
    : never
  : never = true;

/** Every channel type's form, in the select's order. */
export const CHANNEL_FORMS = Object.fromEntries(
  Object.entries<ProviderForm>(PROVIDER_FORMS).filter(([, form]) => 'fields' in form),
) as Record<ChannelType, ChannelForm> & (typeof EVERY_TYPE_HAS_A_FORM extends true ? unknown : never);

/** The types, in the select's order. */
export const CHANNEL_TYPES = Object.keys(CHANNEL_FORMS) as [ChannelType, ...ChannelType[]];

/** A type's form. */
export function channelForm(type: ChannelType): ChannelForm {
  return CHANNEL_FORMS[type];
}

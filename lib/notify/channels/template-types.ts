import { CHANNEL_TYPES, type ChannelType } from '../../domain/channel-types.ts';

/**
 * Which channel types take a message template: those that send people a message. Webhook and NATS
 * send the event as JSON for programs, with no human title or text to replace, so a template
 * there would be ignored; the API refuses one instead (docs/notifications.md "Message templates").
 */

const RAW_EVENT: readonly ChannelType[] = ['webhook', 'nats'];

/** The types a template applies to, in the API's order. */
export const TEMPLATE_CHANNEL_TYPES = CHANNEL_TYPES.filter((type) => !RAW_EVENT.includes(type)) as [
  ChannelType,
  ...ChannelType[],
];

/** Whether a channel of `type` takes a template. */
export function takesTemplate(type: string): boolean {
  return (TEMPLATE_CHANNEL_TYPES as readonly string[]).includes(type);
}

/** The refusal of a template on a type that takes none (or of a type that does not exist). */
export function templateRefusal(type: string): string {
  return (CHANNEL_TYPES as readonly string[]).includes(type)
    ? `A ${type} channel sends the event as JSON, not a message, so it takes no template: leave the template out, or use one of ${TEMPLATE_CHANNEL_TYPES.join(', ')}.`
    : `Choose one of ${TEMPLATE_CHANNEL_TYPES.join(', ')}.`;
}

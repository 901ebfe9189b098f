import { CHANNEL_TYPES, type ChannelType, channelDefinition, isChannelType } from './registry.ts';

/**
 * Which channel types take a message template: those that send people a message (their
 * definition does not say `templates: false`). Webhook and NATS send the event as JSON for
 * programs, with no human title or text to replace, so a template there would be ignored; the API
 * refuses one instead (docs/notifications.md "Message templates").
 */

/** The types a template applies to, in the registry's order. */
export const TEMPLATE_CHANNEL_TYPES = CHANNEL_TYPES.filter(
  (type) => channelDefinition(type).templates !== false,
) as [ChannelType, ...ChannelType[]];

/** Whether a channel of `type` takes a template. */
export function takesTemplate(type: string): boolean {
  return isChannelType(type) && channelDefinition(type).templates !== false;
}

/** The refusal of a template on a type that takes none (or of a type that does not exist). */
export function templateRefusal(type: string): string {
  return isChannelType(type)
    ? `A ${type} channel sends the event as JSON, not a message, so it takes no template: leave the template out.`
    : `Choose one of ${TEMPLATE_CHANNEL_TYPES.join(', ')}.`;
}

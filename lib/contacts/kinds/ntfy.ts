import * as z from 'zod';
import { sendNtfy } from '../../providers/ntfy.ts';
import { defineContactKind, httpOf, sent } from './definition.ts';

/**
 * ntfy (lib/providers/ntfy.ts): the message to the person's topic URL at high priority, with the
 * message's id as its sequence id, so a message sent again (a page whose first send's outcome was
 * lost) replaces the first on the person's devices instead of arriving twice.
 */

/** A topic URL: http(s), a host name or address, a port maybe, and a path. */
const TOPIC_URL = /^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?\/[A-Za-z0-9._~%/-]+$/;

export const ntfyContact = defineContactKind({
  label: 'ntfy',
  address: z
    .string()
    .max(2048, 'Enter at most 2,048 characters.')
    .regex(TOPIC_URL, 'Enter the topic’s URL: http(s)://host/topic.')
    .meta({ description: 'Your ntfy topic URL, such as https://ntfy.sh/ana-pages' }),
  missing: () => undefined,
  send: (deps, _accounts, target, message) =>
    sent(
      sendNtfy(httpOf(deps), {
        url: target.address,
        title: message.subject,
        body: message.text,
        priority: 'high',
        deliveryId: message.deliveryId,
      }),
      [target.address],
    ),
});

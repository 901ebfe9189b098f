import { createHash } from 'node:crypto';
import * as z from 'zod';
import { defineContactKind } from './definition.ts';
import { postToProvider } from './provider-post.ts';

/**
 * ntfy: the message as the text body of a POST to the person's topic URL (through the SSRF guard,
 * as every send), with the message's id as its sequence id (`X-Sequence-ID`, ntfy 2.16 and later):
 * a message sent again (a page whose first send's outcome was lost) replaces the first on the
 * person's devices instead of arriving twice; an older server ignores the header.
 */

/** A topic URL: http(s), a host name or address, a port maybe, and a path. */
const TOPIC_URL = /^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?\/[A-Za-z0-9._~%/-]+$/;

/**
 * The sequence id of a message id: ntfy takes `^[-_A-Za-z0-9]{1,64}$` (and refuses anything else
 * with a 400), so the id's SHA-256, base64url, under a prefix.
 */
const ntfySequenceId = (deliveryId: string) =>
  `vigil-${createHash('sha256').update(deliveryId).digest('base64url').slice(0, 40)}`;

/** A header value of printable ASCII (titles are Vigil's own words). */
const headerText = (text: string) => text.replace(/[^\x20-\x7e]/g, '');

export const ntfyContact = defineContactKind({
  label: 'ntfy',
  address: z
    .string()
    .max(2048, 'Enter at most 2,048 characters.')
    .regex(TOPIC_URL, 'Enter the topic’s URL: http(s)://host/topic.')
    .meta({ description: 'Your ntfy topic URL, such as https://ntfy.sh/ana-pages' }),
  missing: () => undefined,
  send: (deps, _accounts, target, message) =>
    postToProvider(
      deps,
      'ntfy',
      {
        url: target.address,
        headers: {
          'content-type': 'text/plain; charset=utf-8',
          title: headerText(message.subject),
          priority: 'high',
          'x-sequence-id': ntfySequenceId(message.deliveryId),
        },
        body: message.text,
      },
      [target.address],
    ),
});

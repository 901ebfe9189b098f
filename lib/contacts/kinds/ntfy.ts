import * as z from 'zod';
import { defineContactKind } from './definition.ts';
import { postToProvider } from './provider-post.ts';

/** ntfy: the message as the text body of a POST to the person's topic URL (through the SSRF guard, as every send). */

/** A topic URL: http(s), a host name or address, a port maybe, and a path. */
const TOPIC_URL = /^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?\/[A-Za-z0-9._~%/-]+$/;

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
        },
        body: message.text,
      },
      [target.address],
    ),
});

import * as z from 'zod';
import { defineContactKind, sendingFrom } from './definition.ts';
import { postToProvider } from './provider-post.ts';

/** Pushover (https://pushover.net/api) from the application of the account's shared Pushover channel, to the person's user key. */

const PUSHOVER_API = 'https://api.pushover.net/1/messages.json';

export const pushoverContact = defineContactKind({
  label: 'Pushover',
  address: z
    .string()
    .regex(/^[A-Za-z0-9]{30}$/, 'Enter your Pushover user key: 30 letters and digits.')
    .meta({ description: 'Your Pushover user key (30 letters and digits)' }),
  ...sendingFrom(
    (accounts) => accounts.pushover?.app_token,
    {
      none: 'this account has no shared Pushover channel',
      add: 'an admin adds one, and its application sends the messages',
    },
    (deps, token, target, message) => {
      const form = new URLSearchParams({
        token,
        user: target.address,
        title: message.subject,
        message: message.text,
        priority: '1',
      });
      return postToProvider(
        deps,
        'Pushover',
        {
          url: PUSHOVER_API,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: form.toString(),
        },
        [token, target.address],
        // A 200 says status 1; anything else is no delivery.
        (json) => (json as { status?: unknown } | undefined)?.status === 1,
      );
    },
  ),
});

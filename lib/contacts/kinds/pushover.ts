import * as z from 'zod';
import { PUSHOVER_KEY, sendPushover } from '../../providers/pushover.ts';
import { defineContactKind, httpOf, sendingFrom, sent } from './definition.ts';

/** Pushover (lib/providers/pushover.ts) from the application of the account's shared Pushover channel, to the person's user key. */

/** The application of a shared Pushover channel. */
const application = z.object({ app_token: z.string() });

export const pushoverContact = defineContactKind({
  label: 'Pushover',
  address: z
    .string()
    .regex(PUSHOVER_KEY, 'Enter your Pushover user key: 30 letters and digits.')
    .meta({ description: 'Your Pushover user key (30 letters and digits)' }),
  ...sendingFrom(
    (accounts) => accounts.find('pushover', (config) => application.safeParse(config).data?.app_token),
    {
      none: 'this account has no shared Pushover channel',
      add: 'an admin adds one, and its application sends the messages',
    },
    (deps, token, target, message) =>
      sent(
        sendPushover(httpOf(deps), {
          token,
          user: target.address,
          title: message.subject,
          text: message.text,
          priority: 1,
        }),
      ),
  ),
});

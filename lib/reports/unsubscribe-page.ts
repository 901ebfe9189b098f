/**
 * The pages of a report's unsubscribe link: GET shows a button (a mail scanner that follows links
 * changes nothing), POST (the button, or a mail client's RFC 8058 one-click POST) turns reports off.
 * No name or address is shown: the link may have been forwarded.
 */

import { smallPage } from '../http/small-page.ts';

export const unsubscribeFormPage = () =>
  smallPage(
    'Stop Vigil reports',
    '<p>Press the button to stop the weekly or monthly report e-mails to this address. You can turn them on again in the console’s settings.</p>' +
      '<form method="post"><button type="submit">Stop reports</button></form>',
  );

export const unsubscribedPage = () =>
  smallPage(
    'Reports stopped',
    '<p>No more report e-mails will be sent. You can turn them on again in the console’s settings.</p>',
  );

export const invalidUnsubscribePage = () =>
  smallPage(
    'This link does not work',
    '<p>The link is not one Vigil sent, or its account no longer exists.</p>',
  );

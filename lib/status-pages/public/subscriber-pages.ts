import { htmlHeaders } from '../../http/small-page.ts';
import { escapeHtml } from '../html/html-text.ts';
import type { SubscriberRecord } from '../items/subscriber-items.ts';

/**
 * The pages of the subscribe form and of the links a subscriber is sent: plain HTML, no script,
 * forms posting to their own URL. The "check your inbox" page is one text for every request, so it
 * says nothing of the address; the link pages show the address only to whoever holds its link.
 */

/** Headers of these pages: no script, no framing, forms only to this origin, never cached. */
export const SUBSCRIBER_PAGE_HEADERS = htmlHeaders(
  'no-store',
  "default-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
);

/** The style of the subscribe form on the public page (render-html.ts hashes it with its own). */
export const SUBSCRIBE_STYLE =
  '.subscribe{background:#fff;border:1px solid #dde1e6;border-radius:6px;padding:10px 14px;margin:8px 0}' +
  '.subscribe input{font:inherit;padding:4px 6px;margin:0 8px}.subscribe button{font:inherit;padding:4px 12px}';

/** The subscribe form of a public page whose routes are under `base` (a plain POST: no script). */
export function subscribeFormHtml(base: string): string {
  const action = `${escapeHtml(base)}/subscribe`;
  return [
    '<h2>Get updates</h2>',
    `<form class="subscribe" method="post" action="${action}">`,
    '<label for="subscribe-email">Email</label>',
    '<input id="subscribe-email" type="email" name="email" required maxlength="254" autocomplete="email">',
    '<input type="hidden" name="components" value="all">',
    '<button type="submit">Subscribe</button>',
    '<p class="meta">We email a link to confirm; nothing else is sent until you do. Every email can unsubscribe you in one click.</p>',
    '</form>',
  ].join('');
}

function page(title: string, body: string): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">',
    `<title>${escapeHtml(title)}</title></head>`,
    `<body><main><h1>${escapeHtml(title)}</h1>`,
    body,
    '</main></body></html>',
  ].join('\n');
}

/** The answer to every subscription request, whatever the address (byte-identical). */
export function subscribeAcceptedPage(pageTitle: string, home: string): string {
  return page(
    'Check your inbox',
    `<p>If this address can receive updates of ${escapeHtml(pageTitle)}, a link to confirm is on its way. ` +
      'Nothing is sent to it until it is confirmed.</p>' +
      `<p><a href="${escapeHtml(home)}">Back to the status page</a></p>`,
  );
}

/** The confirmation link's page: the address and a Confirm button (a scanner's GET confirms nothing). */
export function confirmFormPage(pageTitle: string, s: SubscriberRecord): string {
  // A webhook subscriber is the one with a URL (the channel type's name is not switched on here).
  const what = s.url ? `calls to the webhook <strong>${escapeHtml(s.url)}</strong>` : 'emails';
  return page(
    `Confirm updates of ${pageTitle}`,
    `<p>${escapeHtml(pageTitle)} is to send ${what} about its incidents, confirmed by <strong>${escapeHtml(s.address)}</strong>.</p>` +
      '<form method="post"><button type="submit">Confirm</button></form>' +
      '<p>If you did not ask for this, close this page: nothing is sent until it is confirmed.</p>',
  );
}

/** After the button; a webhook's page shows the secret its calls are signed with (x-service-signature). */
export function confirmedPage(pageTitle: string, webhookSecret?: string): string {
  return page(
    'Subscription confirmed',
    `<p>You will be told of updates of ${escapeHtml(pageTitle)}.</p>` +
      (webhookSecret
        ? `<p>Each call carries <code>x-service-signature: sha256=&lt;hex HMAC-SHA256 of the body&gt;</code> under this secret, shown only here: <code>${escapeHtml(webhookSecret)}</code></p>`
        : ''),
  );
}

/** The manage link's page: the components to be told about, and an unsubscribe button. */
export function managePage(
  pageTitle: string,
  s: SubscriberRecord,
  entities: readonly { id: string; name: string }[],
): string {
  if (s.state === 'unsubscribed')
    return page(
      'Unsubscribed',
      `<p><strong>${escapeHtml(s.address)}</strong> gets no more updates of ${escapeHtml(pageTitle)}.</p>`,
    );
  const chosen = (id: string) => s.components === 'all' || s.components.includes(id);
  const boxes = entities
    .map(
      (e, i) =>
        `<li><input type="checkbox" id="c${i}" name="components" value="${escapeHtml(e.id)}"${chosen(e.id) ? ' checked' : ''}>` +
        `<label for="c${i}">${escapeHtml(e.name)}</label></li>`,
    )
    .join('');
  return page(
    `Updates of ${pageTitle}`,
    `<p>For <strong>${escapeHtml(s.address)}</strong>${s.state === 'pending' ? ' (not confirmed yet)' : ''}.</p>` +
      (s.state === 'confirmed'
        ? '<form method="post"><fieldset><legend>Tell me about</legend>' +
          `<ul><li><input type="checkbox" id="call" name="components" value="all"${s.components === 'all' ? ' checked' : ''}><label for="call">Everything on the page</label></li>${boxes}</ul>` +
          '</fieldset><input type="hidden" name="action" value="components"><button type="submit">Save</button></form>'
        : '') +
      '<form method="post"><input type="hidden" name="action" value="unsubscribe"><button type="submit">Unsubscribe</button></form>',
  );
}

export function savedPage(pageTitle: string): string {
  return page('Saved', `<p>Your choice of updates of ${escapeHtml(pageTitle)} is saved.</p>`);
}

/** An unknown, used or expired link: one page for all, revealing nothing about a token. */
export function invalidLinkPage(): string {
  return page(
    'This link is not valid',
    '<p>The link is unknown, already used or expired. Subscribe again on the status page for a new one.</p>',
  );
}

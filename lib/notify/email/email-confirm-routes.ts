import * as z from 'zod';
import { defineRoute } from '../../http/define-route.ts';
import type { PublicRoute } from '../../http/types.ts';
import {
  CONFIRM_PAGE_HEADERS,
  confirmedPage,
  confirmFormPage,
  invalidLinkPage,
} from './email-confirm-page.ts';
import type { EmailRecipients } from './email-recipients.ts';

/**
 * The confirmation link of an email recipient (no API key: the token is the credential, 238 random
 * bits, stored hashed): GET shows the address and a Confirm button, POST (the button) confirms.
 * A link scanner's GET confirms nothing. The link names its tenant: another tenant's token, an
 * unknown, used or expired one is the same 404 page. Limited per source address by the router.
 */

const params = z.object({
  tenant_id: z.string().max(100).meta({ description: 'The tenant the link was sent for' }),
  token: z.string().max(200).meta({ description: 'The token of the confirmation email' }),
});
const html = { contentType: 'text/html', schema: z.string() };
/** An unknown, used, expired or other tenant's link: an HTML page for the browser, not the JSON envelope. */
const invalidPage = {
  404: {
    description: 'The invalid-link page (HTML): unknown, used, expired or another tenant’s',
    contentType: 'text/html',
    schema: z.string(),
  },
};
const tag = 'Notifications';
const invalid = () => new Response(invalidLinkPage(), { status: 404, headers: CONFIRM_PAGE_HEADERS });

export function emailConfirmRoutes(deps: { recipients: EmailRecipients }): PublicRoute[] {
  const path = '/v1/email-confirmations/{tenant_id}/{token}';
  return [
    defineRoute({
      method: 'GET',
      path,
      auth: 'none',
      limit: 'address',
      operationId: 'getEmailConfirmation',
      tag,
      summary: 'The page of an email confirmation link (HTML, no key): the address and a Confirm button',
      schemas: { params, responses: { 200: html }, otherErrors: invalidPage },
      handler: async ({ params: p }) => {
        const found = await deps.recipients.peek(p.tenant_id, p.token);
        if (!found) return invalid();
        return new Response(confirmFormPage(found.address), { status: 200, headers: CONFIRM_PAGE_HEADERS });
      },
    }),
    defineRoute({
      method: 'POST',
      path,
      auth: 'none',
      limit: 'address',
      // The page's form posts an empty urlencoded body: never read.
      body: 'raw',
      operationId: 'confirmEmailRecipient',
      tag,
      summary: 'Confirm an email recipient by its link’s token (the page’s button; no key; single use)',
      schemas: { params, responses: { 200: html }, otherErrors: invalidPage },
      handler: async ({ params: p }) => {
        const address = await deps.recipients.confirm(p.tenant_id, p.token);
        if (!address) return invalid();
        return new Response(confirmedPage(address), { status: 200, headers: CONFIRM_PAGE_HEADERS });
      },
    }),
  ];
}

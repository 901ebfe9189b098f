import * as z from 'zod';
import { linkPageRoutes } from '../../http/handlers.ts';
import type { PublicRoute } from '../../http/types.ts';
import { confirmedPage, confirmFormPage, invalidLinkPage } from './email-confirm-page.ts';
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

export function emailConfirmRoutes(deps: { recipients: EmailRecipients }): PublicRoute[] {
  return linkPageRoutes({
    path: '/v1/email-confirmations/{tenant_id}/{token}',
    params,
    tag: 'Notifications',
    invalid: {
      description: 'The invalid-link page (HTML): unknown, used, expired or another tenant’s',
      page: invalidLinkPage,
    },
    show: {
      operationId: 'getEmailConfirmation',
      summary: 'The page of an email confirmation link (HTML, no key): the address and a Confirm button',
      page: async (p) => {
        const found = await deps.recipients.peek(p.tenant_id, p.token);
        return found ? confirmFormPage(found.address) : undefined;
      },
    },
    act: {
      operationId: 'confirmEmailRecipient',
      summary: 'Confirm an email recipient by its link’s token (the page’s button; no key; single use)',
      page: async (p) => {
        const address = await deps.recipients.confirm(p.tenant_id, p.token);
        return address ? confirmedPage(address) : undefined;
      },
    },
  });
}

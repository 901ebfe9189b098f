import * as z from 'zod';
import { EMAIL_ADDRESS_PATTERN, MAX_EMAIL_LENGTH } from '../../domain/formats.ts';
import { emailProblem, sendEmail } from '../../providers/email.ts';
import { defineContactKind, emailSetupOf, failed, sent } from './definition.ts';

/**
 * E-mail (lib/providers/email.ts) through the runtime's transport (SMTP locally, SES in the
 * cloud), within the tenant's daily quota.
 */

const html = (text: string) =>
  `<p>${text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`).replace(/\n/g, '<br>')}</p>`;

export const emailContact = defineContactKind({
  label: 'E-mail',
  address: z
    .string()
    .max(MAX_EMAIL_LENGTH, `Enter at most ${MAX_EMAIL_LENGTH} characters.`)
    .regex(new RegExp(EMAIL_ADDRESS_PATTERN), 'Enter one plain e-mail address, such as ana@example.com.')
    .meta({ description: 'One plain e-mail address' }),
  missing: (_accounts, deps) =>
    emailProblem(emailSetupOf(deps))
      ? 'this deployment sends no e-mail (no mail server or sender is configured)'
      : undefined,
  async send(deps, _accounts, target, message) {
    const setup = emailSetupOf(deps);
    const problem = emailProblem(setup);
    if (problem) return failed(problem);
    const refused = await deps.spendEmail(target.tenantId);
    if (refused) return failed(refused);
    const email = {
      to: [target.address],
      subject: message.subject,
      text: message.text,
      html: html(message.text),
      deliveryId: message.deliveryId,
    };
    return sent(sendEmail(setup, email), [target.address]);
  },
});

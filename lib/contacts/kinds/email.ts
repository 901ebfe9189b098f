import * as z from 'zod';
import { EMAIL_ADDRESS_PATTERN, MAX_EMAIL_LENGTH } from '../../domain/formats.ts';
import { scrub } from '../../providers/provider-post.ts';
import { defineContactKind, failed } from './definition.ts';

/** E-mail through the runtime's transport (SMTP locally, SES in the cloud), within the tenant's daily quota. */

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
    deps.email && deps.emailFrom
      ? undefined
      : 'this deployment sends no e-mail (no mail server or sender is configured)',
  async send(deps, _accounts, target, message) {
    if (!deps.email || !deps.emailFrom) return failed('this deployment sends no e-mail');
    const refused = await deps.spendEmail(target.tenantId);
    if (refused) return failed(refused);
    const outcome = await deps.email.send({
      from: deps.emailFrom,
      to: [target.address],
      subject: message.subject,
      text: message.text,
      html: html(message.text),
      deliveryId: message.deliveryId,
    });
    return outcome.ok
      ? { ok: true }
      : failed(scrub(outcome.error ?? 'the mail server refused it', [target.address]));
  },
});

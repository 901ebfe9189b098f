import * as z from 'zod';
import { EMAIL_ADDRESS_PATTERN, MAX_EMAIL_LENGTH } from '../../domain/formats.ts';
import { emailProblem, sendEmail as sendOne } from '../../providers/email.ts';
import type { Alert, SendOutcome } from '../items/ports.ts';
import { emailAddress } from './config-fields.ts';
import { type ChannelOf, defineChannel } from './definition.ts';
import { describeDigest } from './digest-message.ts';
import { digestEmailContent, type EmailContent, emailContent, headerLine } from './email-message.ts';
import { clip, messageFor } from './message.ts';
import { defineContactKind, emailSetupOf, failed, sent } from './person-use.ts';
import type { EmailDeps } from './send-ports.ts';

/**
 * E-mail's uses (lib/providers/email.ts), its alert channel and people's e-mail (`emailPeople`).
 * The channel: the alert's message as text and HTML to the channel's 1-10 recipients, from
 * VIGIL_EMAIL_FROM, through the runtime's transport: SMTP locally (email-smtp.ts, VIGIL_SMTP_URL),
 * Amazon SES v2 in the cloud (email-ses.ts). The compositions pick the transport, so this module
 * and the channel registry load neither nodemailer nor the SES client.
 */

const storedConfig = z.object({ to: z.array(z.string()) });
type EmailChannel = ChannelOf<z.output<typeof storedConfig>>;

/** DECISIONS.md "Operations features": an email channel has 1 to 10 recipients. */
const MAX_EMAIL_RECIPIENTS = 10;

export { NO_SMTP_SERVER, noSenderError } from '../../providers/email.ts';
export type { EmailTransport, OutgoingEmail } from './send-ports.ts';

/** Characters of the entity's name a subject shows (the body shows it whole, up to 200). */
const SUBJECT_NAME = 80;

/** Sends the email: one attempt, whose failure the notifier retries as any channel's. */
function sendContent(
  deps: EmailDeps,
  channel: EmailChannel,
  content: EmailContent,
  deliveryId: string,
): Promise<SendOutcome> {
  return sendOne(deps, { ...content, to: [...channel.config.to], deliveryId });
}

/** Sends the alert by email: one attempt, whose failure the notifier retries as any channel's. */
function sendEmail(deps: EmailDeps, channel: EmailChannel, alert: Alert): Promise<SendOutcome> {
  const content = emailContent(messageFor(channel, alert, deps.publicUrl));
  // The subject names the entity shortened, so that the state after it always shows and a
  // recipient's inbox never carries more than 80 characters of a user's text (issue 36).
  const name = clip(alert.entity.name || alert.event.entity_name, SUBJECT_NAME);
  content.subject = headerLine(
    `[Vigil] ${messageFor(channel, { ...alert, entity: { ...alert.entity, name } }, undefined).title}`,
  );
  return sendContent(deps, channel, content, alert.deliveryId);
}

export const emailChannel = defineChannel({
  label: 'Email',
  input: z.strictObject({
    to: z
      .array(emailAddress)
      .min(1, 'Enter at least one address.')
      .max(MAX_EMAIL_RECIPIENTS, `Enter at most ${MAX_EMAIL_RECIPIENTS} addresses.`)
      .meta({ description: `1 to ${MAX_EMAIL_RECIPIENTS} recipients` }),
  }),
  stored: storedConfig,
  view: z.strictObject({ to: z.array(z.string()).meta({ description: 'The recipients' }) }),
  viewExtra: {
    recipients: z
      .array(z.strictObject({ address: z.string(), state: z.enum(['confirmed', 'pending']) }))
      .meta({
        description:
          'Each recipient’s state: confirmed (by the emailed link, or a user of the tenant) or pending; only confirmed ones receive email',
      }),
  },
  secrets: [],
  // Addresses are no secret (unlike Slack and Discord URLs): read-only keys see them too.
  present: ({ to }, _tenantId, options) => ({
    config: { to: [...to] },
    recipients: to.map((address) => ({ address, state: options.recipientStates?.get(address) ?? 'pending' })),
  }),
  recipients: {
    of: (config) => config.to,
    keep: (config, to) => ({ ...config, to }),
  },
  // The server is the operator's (VIGIL_SMTP_URL or SES); the SMTP host passes the guard at every send.
  destinations: () => [],
  setupWarnings: (deps) => {
    const problem = emailProblem(deps.email);
    return problem ? [problem] : [];
  },
  send: (deps, channel, alert) => sendEmail(deps.email, channel, alert),
  sendDigest: (deps, channel, digest) =>
    sendContent(deps.email, channel, digestEmailContent(describeDigest(digest)), digest.deliveryId),
});

const html = (text: string) =>
  `<p>${text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`).replace(/\n/g, '<br>')}</p>`;

/** People's e-mail: through the runtime's transport, within the tenant's daily quota. */
export const emailPeople = {
  email: defineContactKind({
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
      return sent(sendOne(setup, email), [target.address]);
    },
  }),
};

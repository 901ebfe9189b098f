import * as z from 'zod';
import { EMAIL_ADDRESS_PATTERN, MAX_EMAIL_LENGTH } from '../domain/formats.ts';
import type { Runtime } from '../platform/config.ts';
import { defineProviderChannel } from './channel-use.ts';
import { emailAddress } from './config-fields.ts';
import { digestEmailContent, type EmailContent, emailContent, headerLine } from './email-message.ts';
import { definePersonUse, failed, sent } from './person-use.ts';
import type { EmailSetup, OutgoingEmail } from './ports.ts';
import type { Provider } from './provider.ts';
import type { ProviderOutcome } from './provider-post.ts';

/**
 * E-mail, defined once: the runtime's transport (SMTP locally, lib/notify/channels/email-smtp.ts;
 * Amazon SES v2 in the cloud, email-ses.ts; the compositions pick it, so this module loads
 * neither nodemailer nor the SES client), the sender (VIGIL_EMAIL_FROM), the words of a
 * deployment that cannot send, and its uses: the alert channel (the alert's message as text and
 * HTML to the channel's 1-10 recipients, each of whom confirms first) and people's e-mail.
 */

export type { EmailTransport, OutgoingEmail } from './ports.ts';

/** The error of every email while no SMTP server is configured (local runtime). */
export const NO_SMTP_SERVER = 'no SMTP server configured (set VIGIL_SMTP_URL to smtp:// or smtps://)';

/** The error of every email while no sender is configured. */
export function noSenderError(runtime: Runtime | undefined): string {
  return runtime === 'cloud'
    ? 'no sender address configured (deploy with -c vigil:emailFrom=alerts@your-verified-domain)'
    : 'no sender address configured (set VIGIL_EMAIL_FROM, e.g. VIGIL_EMAIL_FROM=alerts@example.com)';
}

/** Why every email fails on this deployment, or undefined when it can send. */
function emailProblem(setup: EmailSetup): string | undefined {
  if (!setup.transport) return NO_SMTP_SERVER;
  if (!setup.from) return noSenderError(setup.runtime);
  return undefined;
}

/** Sends one email, one attempt, from the deployment's sender. */
async function sendEmail(setup: EmailSetup, email: Omit<OutgoingEmail, 'from'>): Promise<ProviderOutcome> {
  const problem = emailProblem(setup);
  if (problem || !setup.transport || !setup.from)
    return { ok: false, status_code: null, error: problem ?? NO_SMTP_SERVER };
  try {
    return await setup.transport.send({ ...email, from: setup.from });
  } catch (err) {
    return {
      ok: false,
      status_code: null,
      error: `send failed: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
}

const storedConfig = z.object({ to: z.array(z.string()) });
type EmailConfig = z.output<typeof storedConfig>;

/** DECISIONS.md "Operations features": an email channel has 1 to 10 recipients. */
const MAX_EMAIL_RECIPIENTS = 10;

/** Characters of the entity's name a subject shows (the body shows it whole, up to 200). */
const SUBJECT_NAME = 80;

/** Sends the content to the channel's recipients: one attempt, whose failure the notifier retries as any channel's. */
function sendContent(setup: EmailSetup, config: EmailConfig, content: EmailContent, deliveryId: string) {
  return sendEmail(setup, { ...content, to: [...config.to], deliveryId });
}

const channel = defineProviderChannel({
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
  send: (deps, config, alert) => {
    const content = emailContent(alert.message);
    // The subject names the entity shortened, so that the state after it always shows and a
    // recipient's inbox never carries more than 80 characters of a user's text (issue 36).
    content.subject = headerLine(`[Vigil] ${alert.titleWithName(SUBJECT_NAME)}`);
    return sendContent(deps.email, config, content, alert.deliveryId);
  },
  sendDigest: (deps, config, digest) =>
    sendContent(deps.email, config, digestEmailContent(digest.message), digest.deliveryId),
});

const html = (text: string) =>
  `<p>${text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`).replace(/\n/g, '<br>')}</p>`;

/** People's e-mail: through the runtime's transport, within the tenant's daily quota. */
const people = {
  email: definePersonUse({
    label: 'E-mail',
    address: z
      .string()
      .max(MAX_EMAIL_LENGTH, `Enter at most ${MAX_EMAIL_LENGTH} characters.`)
      .regex(new RegExp(EMAIL_ADDRESS_PATTERN), 'Enter one plain e-mail address, such as ana@example.com.')
      .meta({ description: 'One plain e-mail address' }),
    missing: (_accounts, deps) =>
      emailProblem(deps.email)
        ? 'this deployment sends no e-mail (no mail server or sender is configured)'
        : undefined,
    async send(deps, _accounts, target, message) {
      const problem = emailProblem(deps.email);
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
      return sent(sendEmail(deps.email, email), [target.address]);
    },
  }),
};

export const emailProvider = { channel, people } satisfies Provider;

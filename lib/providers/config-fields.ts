import * as z from 'zod';
import {
  EMAIL_ADDRESS_PATTERN,
  HTTP_TOPIC_URL_PATTERN,
  HTTP_URL_PATTERN,
  isSafeEmailAddress,
  MAX_EMAIL_LENGTH,
  natsSubjectProblem,
} from '../domain/formats.ts';
import { REDACTED } from '../domain/redaction.ts';

/**
 * The config fields channel definitions build their schemas from (the providers' channel uses,
 * ./<provider>.ts, and the channel types of lib/notify/channels; DECISIONS.md "Notifications"):
 * each with its sentence-long messages and the OpenAPI document's pattern and description. URL
 * channels take https: alerts carry entity names and errors, and Slack, Discord and webhook URLs
 * embed their secret. http:// is accepted only for a receiver in VIGIL_EGRESS_ALLOW (the user's
 * own machine or LAN), which checkChannelDestination (lib/notify/api-schemas/channel-config.ts) decides, since a host
 * name's addresses are known only after DNS.
 */

const MAX_URL_LENGTH = 2048;
export const MAX_SECRET_LENGTH = 256;
export const MAX_TOKEN_LENGTH = 512;
const MAX_SUBJECT_LENGTH = 255;

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const HTTP_ONLY_ALLOWED = 'http:// only for a receiver in a range VIGIL_EGRESS_ALLOW allows';

/** A receiver's https URL (http:// for a receiver VIGIL_EGRESS_ALLOW allows). */
export const receiverUrl = z
  .string()
  .max(MAX_URL_LENGTH, `Enter a URL of at most ${MAX_URL_LENGTH} characters.`)
  .refine(isHttpUrl, 'Enter an https:// URL (http:// only for a receiver VIGIL_EGRESS_ALLOW allows).')
  .meta({ pattern: HTTP_URL_PATTERN, description: `An https URL; ${HTTP_ONLY_ALLOWED}` });

/** A topic URL names its topic in the path: `https://ntfy.sh/` alone publishes nowhere. */
export const topicUrl = receiverUrl
  .refine((value) => {
    try {
      return new URL(value).pathname.replace(/\/+$/, '') !== '';
    } catch {
      return false;
    }
  }, 'Enter the full topic URL, such as https://ntfy.sh/my-topic.')
  .meta({
    pattern: HTTP_TOPIC_URL_PATTERN,
    description: `The full https topic URL, such as https://ntfy.sh/my-topic; ${HTTP_ONLY_ALLOWED}`,
  });

/** Printable ASCII without spaces: the value travels in an HTTP header or HMAC key. */
export const headerSafe = (max: number) =>
  z
    .string()
    .min(1, 'Enter a value, or leave the field out.')
    .max(max, `Enter at most ${max} characters.`)
    .regex(/^[\x21-\x7e]+$/, 'Use printable ASCII characters without spaces.');

/** Printable ASCII but space, `*`, `.` and `>`; a subject's first character is not `$` or `_` either. */
const SUBJECT_CHAR = '[\\x21-\\x29\\x2b-\\x2d\\x2f-\\x3d\\x3f-\\x7e]';
const FIRST_SUBJECT_CHAR = '[\\x21-\\x23\\x25-\\x29\\x2b-\\x2d\\x2f-\\x3d\\x3f-\\x5e\\x60-\\x7e]';

/**
 * A NATS channel's own subject, under the tenant's root (`<VIGIL_NATS_PREFIX>.<tenant id>.`, added
 * at send time): exact, and never a `$` API or `_INBOX` reply subject.
 */
export const natsSubject = z
  .string()
  .min(1, 'Enter a subject, such as alerts.api.')
  .max(MAX_SUBJECT_LENGTH, `Enter a subject of at most ${MAX_SUBJECT_LENGTH} characters.`)
  .superRefine((value, ctx) => {
    const problem = natsSubjectProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .meta({
    // What natsSubjectProblem accepts, less any leading `_` (the document is stricter: no lookahead).
    pattern: `^${FIRST_SUBJECT_CHAR}${SUBJECT_CHAR}*(?:\\.${SUBJECT_CHAR}+)*$`,
    description: 'Dot-separated tokens of printable ASCII, without the wildcards * and >',
  });

/**
 * One email address: zod's email check and Vigil's conservative pattern (lib/domain/formats/email-address.ts),
 * so no CR, LF, comma, semicolon or space can reach a header, whatever the mail library does.
 */
export const emailAddress = z
  .string()
  .max(MAX_EMAIL_LENGTH, `Enter an address of at most ${MAX_EMAIL_LENGTH} characters.`)
  .pipe(z.email('Enter an email address such as ops@example.com.'))
  .refine(isSafeEmailAddress, 'Enter one plain address such as ops@example.com (no name, comma or spaces).')
  .meta({ pattern: EMAIL_ADDRESS_PATTERN, description: 'One email address, such as ops@example.com' });

/** A view's URL: shown to callers with write access, `********` for read-only keys. */
export const urlView = z.string().meta({ description: `The URL; ${REDACTED} for read-only keys` });

/** A view's secret: always `********` when set (write-only). */
export const redactedView = z.literal(REDACTED);

/** A URL as the caller may see it: whole with write access, `********` for read-only keys. */
export function shownUrl(url: string, options: { readOnly: boolean }): string {
  return options.readOnly ? REDACTED : url;
}

/** `{key: '********'}` when the secret is set, else nothing (a view shows that one is set, never its value). */
export function shownSecret<K extends string>(
  key: K,
  value: string | undefined,
): { [P in K]?: typeof REDACTED } {
  return (value ? { [key]: REDACTED } : {}) as { [P in K]?: typeof REDACTED };
}

/** The one destination of a URL channel, for the SSRF guard at create. */
export function urlDestination(config: { url: string }): { path: string; url: string }[] {
  return [{ path: 'config.url', url: config.url }];
}

/**
 * The config of a channel that is one secret-bearing webhook URL (Slack, Discord, Microsoft Teams,
 * Google Chat): its request and stored schemas, its view (the URL redacted for read-only keys) and
 * its one destination. A definition spreads it and adds its label and senders.
 */
export const webhookUrlChannel = {
  input: z.strictObject({ url: receiverUrl }),
  stored: z.object({ url: z.string() }),
  view: z.strictObject({ url: urlView }),
  secrets: [] as const,
  present: (config: { url: string }, _tenantId: string, options: { readOnly: boolean }) => ({
    config: { url: shownUrl(config.url, options) },
  }),
  destinations: urlDestination,
};

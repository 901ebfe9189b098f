import * as z from 'zod';
import { EMAIL_ADDRESS_PATTERN, isSafeEmailAddress, MAX_EMAIL_LENGTH } from '../domain/email-address.ts';
import { natsSubjectProblem } from '../domain/nats-subject.ts';
import { HTTP_TOPIC_URL_PATTERN, HTTP_URL_PATTERN } from '../domain/url-patterns.ts';
import { idSchema } from '../http/route-schemas.ts';
import { parseInput } from '../http/validation.ts';
import type { Runtime } from '../platform/config.ts';
import { egressRefusal } from '../platform/egress-advice.ts';
import { ConnectionError, EgressDeniedError } from '../platform/egress-errors.ts';
import { checkUrl, type Resolve } from '../platform/egress-guard.ts';
import { ValidationError } from '../platform/errors.ts';
import { CHANNEL_TYPES } from './channel-items.ts';

/**
 * A channel's type and config as a request body carries them (DECISIONS.md "Notifications"):
 * validated per type here, and every URL's destination checked by the SSRF guard at create.
 * URL channels take https: alerts carry entity names and errors, and Slack, Discord and webhook
 * URLs embed their secret. http:// is accepted only for a receiver in VIGIL_EGRESS_ALLOW (the
 * user's own machine or LAN), which checkChannelDestination decides, since a host name's
 * addresses are known only after DNS.
 */

const MAX_URL_LENGTH = 2048;
const MAX_SECRET_LENGTH = 256;
const MAX_TOKEN_LENGTH = 512;
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

const receiverUrl = z
  .string()
  .max(MAX_URL_LENGTH, `Enter a URL of at most ${MAX_URL_LENGTH} characters.`)
  .refine(isHttpUrl, 'Enter an https:// URL (http:// only for a receiver VIGIL_EGRESS_ALLOW allows).')
  .meta({ pattern: HTTP_URL_PATTERN, description: `An https URL; ${HTTP_ONLY_ALLOWED}` });

/** A topic URL names its topic in the path: `https://ntfy.sh/` alone publishes nowhere. */
const topicUrl = receiverUrl
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
const headerSafe = (max: number) =>
  z
    .string()
    .min(1, 'Enter a value, or leave the field out.')
    .max(max, `Enter at most ${max} characters.`)
    .regex(/^[\x21-\x7e]+$/, 'Use printable ASCII characters without spaces.');

/** Printable ASCII but space, `*`, `.` and `>`; a subject's first character is not `$` or `_` either. */
const SUBJECT_CHAR = '[\\x21-\\x29\\x2b-\\x2d\\x2f-\\x3d\\x3f-\\x7e]';
const FIRST_SUBJECT_CHAR = '[\\x21-\\x23\\x25-\\x29\\x2b-\\x2d\\x2f-\\x3d\\x3f-\\x5e\\x60-\\x7e]';

/**
 * The channel's own subject, under the tenant's root (`<VIGIL_NATS_PREFIX>.<tenant id>.`, added at
 * send time): exact, and never a `$` API or `_INBOX` reply subject.
 */
const subject = z
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

const chatConfig = z.strictObject({ url: receiverUrl });

/** DECISIONS.md "Operations features": an email channel has 1 to 10 recipients. */
export const MAX_EMAIL_RECIPIENTS = 10;

/**
 * One recipient: zod's email check and Vigil's conservative pattern (lib/domain/email-address.ts),
 * so no CR, LF, comma, semicolon or space can reach a header, whatever the mail library does.
 */
const emailAddress = z
  .string()
  .max(MAX_EMAIL_LENGTH, `Enter an address of at most ${MAX_EMAIL_LENGTH} characters.`)
  .pipe(z.email('Enter an email address such as ops@example.com.'))
  .refine(isSafeEmailAddress, 'Enter one plain address such as ops@example.com (no name, comma or spaces).')
  .meta({ pattern: EMAIL_ADDRESS_PATTERN, description: 'One email address, such as ops@example.com' });

const emailConfig = z.strictObject({
  to: z
    .array(emailAddress)
    .min(1, 'Enter at least one address.')
    .max(MAX_EMAIL_RECIPIENTS, `Enter at most ${MAX_EMAIL_RECIPIENTS} addresses.`)
    .meta({ description: `1 to ${MAX_EMAIL_RECIPIENTS} recipients` }),
});

/** The channel variants, each with `extra` fields (a tenant channel's name) besides type and config. */
function channelVariants<E extends z.core.$ZodLooseShape>(extra: E) {
  return [
    z.strictObject({ ...extra, channel_type: z.literal('slack'), config: chatConfig }),
    z.strictObject({ ...extra, channel_type: z.literal('discord'), config: chatConfig }),
    z.strictObject({
      ...extra,
      channel_type: z.literal('webhook'),
      config: z.strictObject({ url: receiverUrl, secret: headerSafe(MAX_SECRET_LENGTH).optional() }),
    }),
    z.strictObject({ ...extra, channel_type: z.literal('nats'), config: z.strictObject({ subject }) }),
    z.strictObject({
      ...extra,
      channel_type: z.literal('ntfy'),
      config: z.strictObject({ url: topicUrl, token: headerSafe(MAX_TOKEN_LENGTH).optional() }),
    }),
    z.strictObject({ ...extra, channel_type: z.literal('email'), config: emailConfig }),
  ] as const;
}

const unknownType = {
  error: (issue: z.core.$ZodRawIssue) =>
    issue.code === 'invalid_union' ? `Choose a channel type: ${CHANNEL_TYPES.join(', ')}.` : undefined,
};

/** The request body of a new channel: `{channel_type, config}`, unknown keys rejected at every level. */
export const channelInputSchema = z.discriminatedUnion('channel_type', channelVariants({}), unknownType);

/** A tenant channel's name: what the console and routes show it by. */
export const MAX_CHANNEL_NAME_LENGTH = 100;
export const channelNameSchema = z
  .string()
  .regex(/\S/, 'This field is required.')
  .trim()
  .min(1, 'This field is required.')
  .max(MAX_CHANNEL_NAME_LENGTH, `Use at most ${MAX_CHANNEL_NAME_LENGTH} characters.`)
  .meta({ description: 'Shown in the console and the routes editor' });

/** POST /v1/notify/channels: a tenant channel `{name, channel_type, config}`, validated as a check's. */
export const tenantChannelInputSchema = z
  .discriminatedUnion('channel_type', channelVariants({ name: channelNameSchema }), unknownType)
  .meta({ id: 'TenantChannelInput' });
export type TenantChannelInput = z.output<typeof tenantChannelInputSchema>;

/** `{channel_id}` in place of a new channel: attaches that tenant channel to the check. */
export const attachChannelSchema = z.strictObject({
  // Absent: the variant without a type (OpenAPI's discriminator then stays off this union).
  // `not: {}` states "absent" in the document (zod's undefined has no JSON Schema).
  channel_type: z.undefined().optional().meta({ description: 'Absent when attaching', not: {} }),
  channel_id: idSchema('chn').meta({ description: 'A tenant channel (POST /v1/notify/channels) to attach' }),
});

/** POST /v1/checks/{check_id}/policy/channels: a new channel of the check, or `{channel_id}` to attach a tenant channel. */
export const checkChannelBodySchema = z.discriminatedUnion(
  'channel_type',
  [...channelVariants({}), attachChannelSchema],
  unknownType,
);
export type CheckChannelBody = z.output<typeof checkChannelBodySchema>;

/** A validated channel body, ready to store. */
export type ChannelInput = z.output<typeof channelInputSchema>;

/** Parses a channel request body; throws ValidationError naming each bad field (`config.url`, ...). */
export function parseChannelInput(body: unknown): ChannelInput {
  return parseInput(channelInputSchema, body);
}

/**
 * Checks at create time that the channel's URL resolves only to addresses the SSRF guard allows
 * (`allow`: VIGIL_EGRESS_ALLOW), and that an http:// URL resolves only into `allow`: a literal
 * address is judged as written, a host name by what it resolves to now (its name says nothing of
 * where it points; every send checks again on connect, so a name moved out of the allowed range
 * later is refused then). Throws ValidationError at `config.url`, naming the setting that would
 * allow the address; nats and email channels have no URL (their servers are the operator's:
 * VIGIL_NATS_URL, VIGIL_SMTP_URL or SES; the SMTP host passes the guard at every send).
 */
export async function checkChannelDestination(
  input: ChannelInput | TenantChannelInput,
  egress: { allow: readonly string[]; resolve?: Resolve; runtime?: Runtime },
): Promise<void> {
  if (input.channel_type === 'nats' || input.channel_type === 'email') return;
  try {
    await checkUrl(input.config.url, {
      allowPrivate: false,
      allow: egress.allow,
      resolve: egress.resolve,
      httpOnlyToAllowList: true,
    });
  } catch (err) {
    if (err instanceof EgressDeniedError) {
      throw ValidationError.field('config.url', egressRefusal(err, egress.runtime ?? 'local'));
    }
    if (err instanceof ConnectionError) throw ValidationError.field('config.url', err.message);
    throw err;
  }
}

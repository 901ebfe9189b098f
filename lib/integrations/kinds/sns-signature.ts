import { verify, X509Certificate } from 'node:crypto';
import * as z from 'zod';

/**
 * Amazon SNS's message signatures (its "Verifying the signatures of Amazon SNS messages"): the
 * fields of the message in a fixed order, `name\nvalue\n` each, signed with RSA over SHA1
 * (SignatureVersion 1) or SHA256 (2) by the key of the certificate at `SigningCertURL`, which must be
 * an HTTPS URL of `sns.<region>.amazonaws.com` in the region of the topic. Written here rather than
 * with `sns-validator` (its last release 2020): that package fetches the certificate with its own
 * `https.get`, outside the egress guard every outbound request of Vigil passes; the check itself is
 * these thirty lines over node:crypto.
 */

export const snsEnvelopeSchema = z.object({
  Type: z.enum(['Notification', 'SubscriptionConfirmation', 'UnsubscribeConfirmation']),
  MessageId: z.string().min(1).max(100),
  TopicArn: z.string().regex(/^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[\w-]{1,256}$/, 'not an SNS topic ARN'),
  Subject: z.string().max(100).optional(),
  Message: z.string(),
  Timestamp: z.string(),
  SignatureVersion: z.enum(['1', '2']),
  Signature: z.string().min(1).max(2048),
  SigningCertURL: z.string().max(2048),
  SubscribeURL: z.string().max(2048).optional(),
  Token: z.string().max(2048).optional(),
});
export type SnsEnvelope = z.output<typeof snsEnvelopeSchema>;

const SIGNED_FIELDS: Record<SnsEnvelope['Type'], readonly (keyof SnsEnvelope)[]> = {
  Notification: ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'],
  SubscriptionConfirmation: [
    'Message',
    'MessageId',
    'SubscribeURL',
    'Timestamp',
    'Token',
    'TopicArn',
    'Type',
  ],
  UnsubscribeConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
};

/** The region of a topic ARN (`arn:aws:sns:<region>:<account>:<name>`). */
export function topicRegion(topicArn: string): string {
  return topicArn.split(':')[3] ?? '';
}

/**
 * Why a URL is not one of SNS's own for the topic's region, or undefined when it is: HTTPS, on
 * `sns.<region>.amazonaws.com` (`.com.cn` in China), no port, no user.
 */
export function snsUrlProblem(url: string, region: string, field: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `${field} is not a URL`;
  }
  const hosts = [`sns.${region}.amazonaws.com`, `sns.${region}.amazonaws.com.cn`];
  if (parsed.protocol !== 'https:') return `${field} is not HTTPS`;
  if (
    !hosts.includes(parsed.hostname) ||
    parsed.port !== '' ||
    parsed.username !== '' ||
    parsed.password !== ''
  )
    return `${field} is not on sns.${region}.amazonaws.com`;
  return undefined;
}

/** Why a URL may not be fetched as SNS's certificate (snsUrlProblem, and a `.pem`), or undefined. */
export function certificateUrlProblem(url: string, region: string): string | undefined {
  const problem = snsUrlProblem(url, region, 'SigningCertURL');
  if (problem) return problem;
  return new URL(url).pathname.endsWith('.pem') ? undefined : 'SigningCertURL is not a certificate (.pem)';
}

/** The text SNS signed: each signed field present, `name\nvalue\n`, in the documented order. */
export function stringToSign(envelope: SnsEnvelope): string {
  let text = '';
  for (const field of SIGNED_FIELDS[envelope.Type]) {
    const value = envelope[field];
    if (value !== undefined) text += `${field}\n${value}\n`;
  }
  return text;
}

/** Whether `certificatePem` (valid now) signed the envelope. */
export function signatureHolds(envelope: SnsEnvelope, certificatePem: string, now: Date): boolean {
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(certificatePem);
  } catch {
    return false;
  }
  if (now < new Date(certificate.validFrom) || now > new Date(certificate.validTo)) return false;
  const algorithm = envelope.SignatureVersion === '1' ? 'sha1' : 'sha256';
  try {
    return verify(
      algorithm,
      Buffer.from(stringToSign(envelope), 'utf8'),
      certificate.publicKey,
      Buffer.from(envelope.Signature, 'base64'),
    );
  } catch {
    return false;
  }
}

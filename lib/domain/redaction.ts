/**
 * What results and messages must never show (its front door; the files in redaction/ are private):
 * the mask, secret-looking names and values, URL credentials.
 */
export { REDACTED } from './redaction/redacted.ts';
export { isSecretName, maskSecretLooking } from './redaction/secret-names.ts';
export type { Redact } from './redaction/secret-redaction.ts';
export { CUT_MARK, secretForms, secretRedactor, urlSecrets } from './redaction/secret-redaction.ts';
export { redactUrl, unredactedUrl } from './redaction/url-redaction.ts';

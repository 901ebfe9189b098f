/**
 * Names and formats the API accepts (its front door; the files in formats/ are private): slugs,
 * e-mail addresses, API keys and OAuth scopes, NATS subjects, URL origins and patterns, ISO times,
 * status pages' custom domains.
 */
export {
  API_KEY_ALPHABET,
  API_KEY_FORMAT_MESSAGE,
  API_KEY_PREFIX,
  API_KEY_RANDOM_LENGTH,
  apiKeyChecksum,
  isWellFormedApiKey,
} from './formats/api-key-format.ts';
export type { EmailSender } from './formats/email-address.ts';
export {
  EMAIL_ADDRESS_PATTERN,
  formatEmailSender,
  isSafeEmailAddress,
  MAX_EMAIL_LENGTH,
  parseEmailSender,
} from './formats/email-address.ts';
export { isoTime } from './formats/iso-time.ts';
export { DEFAULT_NATS_PREFIX, natsSubjectProblem, publishedSubject } from './formats/nats-subject.ts';
export {
  grantableScopes,
  parseScopeParam,
  SCOPES,
  scopeSchema,
  scopeText,
  sortScopes,
} from './formats/oauth-scopes.ts';
export {
  MAX_PAGE_DOMAIN_LENGTH,
  PAGE_DOMAIN_PATTERN,
  PAGE_DOMAIN_RULE,
  pageDomainProblem,
} from './formats/page-domain.ts';
export { SLUG, slugSchema } from './formats/slug.ts';
export { hostnameOf, isHostValue, originOf, requestTarget } from './formats/url-origin.ts';
export { HTTP_TOPIC_URL_PATTERN, HTTP_URL_PATTERN, TEMPLATED_URL_PATTERN } from './formats/url-patterns.ts';

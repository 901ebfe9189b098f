/**
 * What an http check expects of a response, as stored and read back (its front door; the files in
 * assertions/ are private): stored assertions, their path and pattern syntax, expected status codes.
 * No RE2 here: validating assertions at the API is ./http-assertions.ts, which loads it.
 */

export { assertionInput, jsonPathSchema } from './assertions/assertion-input.ts';
export { HEADER_NAME } from './assertions/assertion-problem.ts';
export type { PathSegment } from './assertions/assertion-syntax.ts';
export { compileWith, parseJsonPath } from './assertions/assertion-syntax.ts';
export type { ExpectedStatus } from './assertions/http-statuses.ts';
export {
  expectedStatusesSchema,
  expectedStatusesText,
  expectedStatusSchema,
  firstExpectedCode,
  MAX_EXPECTED_STATUSES,
  statusAccepted,
  storedExpectedStatusesSchema,
} from './assertions/http-statuses.ts';
export { storedAssertionSchema } from './assertions/stored-assertions.ts';

/**
 * Reading a request and answering its errors, as other folders do (the front door of requests/):
 * a JSON body, input validation and its issue sentences, the paging query, the error response.
 */

export { errorResponse, INTERNAL_ERROR_BODY } from './requests/error-response.ts';
export { issueSentence, unknownKeysSentence } from './requests/issue-messages.ts';
export { parseJsonBody } from './requests/json-body.ts';
export { pageQuery } from './requests/page-query.ts';
export { parseInput } from './requests/validation.ts';

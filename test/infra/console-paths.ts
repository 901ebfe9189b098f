/**
 * What the console's CloudFront distribution sends to the API, as the console and edge tests read
 * it: the API's path patterns in the distribution's order (streamed paths first, then every other
 * /v1 path, the ping, calendar and action URLs), and the managed origin request policy they use
 * (every viewer header but Host).
 */
export const API_PATHS = [
  '/v1/status/stream',
  '/v1/mcp',
  '/v1/mcp*',
  '/v1/config/*',
  '/v1/*',
  '/healthz',
  '/oauth/*',
  '/.well-known/oauth-*',
  '/ping/*',
  '/ical/*',
  '/a/*',
];

export const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

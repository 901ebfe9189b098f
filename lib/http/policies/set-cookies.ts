/**
 * Several cookies in one reply (a sign-in's session and device cookies): a reply's headers are a
 * record of strings, and no header value can hold a newline, so a newline separates the Set-Cookie
 * values; each transport writes one Set-Cookie header per value (lib/local/http-server.ts,
 * lib/lambda-http/lambda-adapter.ts's `cookies`).
 */
export const joinSetCookies = (values: readonly string[]): string => values.join('\n');

/** The Set-Cookie values of a reply's `set-cookie` header. */
export const splitSetCookies = (value: string): string[] => value.split('\n');

/** A response's headers as node:http writes them: several Set-Cookie values as an array. */
export function nodeHeaders(headers: Record<string, string>): Record<string, string | string[]> {
  const cookies = headers['set-cookie'];
  return cookies?.includes('\n') ? { ...headers, 'set-cookie': splitSetCookies(cookies) } : headers;
}

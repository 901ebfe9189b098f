import type { components, operations } from './schema';

/**
 * TEMPORARY: the second-factor and password reset routes as the console expects them (DECISIONS.md "People (wave 4)"), until they are in the OpenAPI document and
 * `npm run api:types` puts them in schema.d.ts; then this file goes.
 */

type Json<T> = { content: { 'application/json': T } };
type NoContent = { headers: Record<string, unknown>; content?: never };
type Refusal = { headers: Record<string, unknown> } & Json<components['schemas']['Error']>;
type Op<Body, Ok, Status extends number = 200, Path = never, Query = never> = ([Body] extends [never]
  ? { requestBody?: never }
  : { requestBody: Json<Body> }) & {
  parameters: { query?: Query; header?: never; cookie?: never } & ([Path] extends [never]
    ? { path?: never }
    : { path: Path });
  responses: {
    [S in Status]: [Ok] extends [never] ? NoContent : { headers: Record<string, unknown> } & Json<Ok>;
  } & {
    400: Refusal;
    401: Refusal;
    403: Refusal;
    404: Refusal;
    409: Refusal;
    429: Refusal;
  };
};
type Item<Get = never, Post = never, Delete = never> = {
  parameters: { query?: never; header?: never; path?: never; cookie?: never };
  get: Get;
  put?: never;
  post: Post;
  delete: Delete;
  options?: never;
  head?: never;
  patch?: never;
  trace?: never;
};

type MeBody = operations['getMe']['responses'][200]['content']['application/json'];

export type PeoplePaths = {
  '/v1/me': Item<Op<never, MeBody & { totp_enabled?: boolean }>>;
  '/v1/me/totp': Item<never, Op<never, { secret: string; otpauth_url: string }>>;
  '/v1/me/totp/disable': Item<never, Op<{ code: string }, never, 204>>;
  '/v1/me/totp/confirm': Item<never, Op<{ code: string }, { recovery_codes: string[] }>>;
  '/v1/me/recovery-codes': Item<never, Op<{ code: string }, { recovery_codes: string[] }>>;
  '/v1/password-reset': Item<never, Op<{ email: string }, never, 202>>;
  '/v1/password-reset/confirm': Item<never, Op<{ token: string; password: string }, never, 204>>;
};

import type { components, operations } from './schema';

/**
 * TEMPORARY: the people routes (DECISIONS.md "People (wave 4)") as the console expects them, until
 * the sessions and second-factor routes are in the OpenAPI document and `npm run api:types` puts
 * them in schema.d.ts; then this file goes.
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

export interface SessionView {
  id: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  source_ip?: string | null;
  user_agent?: string | null;
  method: 'password' | 'sso';
  current: boolean;
}

export type PeoplePaths = {
  '/v1/me': Item<
    Op<
      never,
      MeBody & {
        csrf_token?: string | null;
        credential?: 'key' | 'session' | 'oauth';
        totp_enabled?: boolean;
      }
    >,
    never,
    never
  >;
  '/v1/session': Item<
    never,
    Op<{ email: string; password: string; totp?: string; tenant?: string }, never, 204>,
    Op<never, never, 204>
  >;
  '/v1/sessions': Item<Op<never, SessionView[]>>;
  '/v1/sessions/{id}': Item<never, never, Op<never, never, 204, { id: string }>>;
  '/v1/me/password': Item<never, Op<{ current_password?: string; password: string }, never, 204>>;
  '/v1/me/totp': Item<
    never,
    Op<never, { secret: string; otpauth_url: string }, 201>,
    Op<{ code: string }, never, 204>
  >;
  '/v1/me/totp/confirm': Item<never, Op<{ code: string }, { recovery_codes: string[] }>>;
  '/v1/me/recovery-codes': Item<never, Op<{ code: string }, { recovery_codes: string[] }>>;
  '/v1/password-reset': Item<never, Op<{ email: string }, never, 202>>;
  '/v1/password-reset/confirm': Item<never, Op<{ token: string; password: string }, never, 204>>;
  '/v1/settings/users/accept': Item<
    never,
    Op<
      { token: string; name?: string; password?: string },
      operations['acceptInvitation']['responses'][201]['content']['application/json'],
      201
    >
  >;
};

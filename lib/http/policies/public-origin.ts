import { ForbiddenError } from '../../platform/errors.ts';
import { type HostPolicy, isAllowedHost, requestOrigin } from '../origin-policy.ts';
import type { RouteContext } from '../types.ts';

/**
 * The origin the server is reached at, as the OAuth metadata and the MCP 401 name it:
 * VIGIL_PUBLIC_URL's, else the request's own, where its Host is one the server is known by (a
 * DNS-rebinding page must not make the server advertise its name); behind API Gateway without a
 * Host, the platform's name over https. Throws ForbiddenError for an unknown Host.
 */
export function publicOrigin(
  policy: HostPolicy,
  ctx: Pick<RouteContext, 'headers' | 'platformHost'>,
): string {
  if (policy.publicUrl !== undefined && URL.canParse(policy.publicUrl))
    return new URL(policy.publicUrl).origin;
  if (!isAllowedHost(ctx.headers, policy, ctx.platformHost))
    throw new ForbiddenError('this server does not answer under this Host');
  const own = requestOrigin(ctx.headers);
  if (own !== undefined) return own;
  return `https://${ctx.platformHost ?? 'localhost'}`;
}

/** The URL of the protected resource metadata (RFC 9728) for the MCP endpoint. */
export const resourceMetadataUrl = (origin: string) => `${origin}/.well-known/oauth-protected-resource`;

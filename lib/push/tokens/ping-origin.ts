import type { HostPolicy } from '../../http/origin-policy.ts';
import { publicOrigin } from '../../http/policies.ts';
import type { RouteContext } from '../../http/types.ts';
import { ForbiddenError } from '../../platform/errors.ts';

/**
 * The origin of the ping URLs an answer shows its caller: VIGIL_PING_URL's (the cloud's ping
 * function URL, where a ping costs no API Gateway request), else VIGIL_PUBLIC_URL's, else the address
 * this request came in on (its Host where the server is known by it; in the cloud the API's own
 * domain), else null. A Host is the client's word: it only builds the URL returned to the caller of
 * this same request, and is never stored nor put in an e-mail or an alert.
 */
export function pingOrigin(
  hosts: HostPolicy,
  ctx: Pick<RouteContext, 'headers' | 'platformHost'>,
): string | null {
  if (hosts.pingUrl !== undefined) return hosts.pingUrl;
  try {
    return publicOrigin(hosts, ctx);
  } catch (error) {
    if (error instanceof ForbiddenError) return null;
    throw error;
  }
}

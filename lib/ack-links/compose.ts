import type { PublicRoute } from '../http/types.ts';
import { ackLinkRoutes } from './ack-link-routes.ts';
import { type AckLinkServiceDeps, createAckLinkService } from './ack-link-service.ts';

export { mintAckLinks } from './mint.ts';

/**
 * Acknowledgement links (issue 55 item 4): `mintAckLinks` for whoever pages a person (the links a
 * page's message carries), and the keyless routes `/a/{token}` the links open.
 */
export function composeAckLinks(deps: AckLinkServiceDeps): { routes: PublicRoute[] } {
  return { routes: ackLinkRoutes({ links: createAckLinkService(deps) }) };
}

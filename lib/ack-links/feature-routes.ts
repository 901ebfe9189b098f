import { defineMount } from '../platform/feature.ts';
import type { AckLinkServiceDeps } from './ack-link-service.ts';
import { composeAckLinks } from './compose.ts';

/** What the links' routes take: the incidents feature as composed (its service acknowledges). */
type AckLinkMountDeps = Omit<AckLinkServiceDeps, 'incidents'> & {
  incidents: { service: AckLinkServiceDeps['incidents'] };
};

/** Acknowledgement links (/a/{token}) a page's message carries (issue 55 item 4). */
export const ackLinksMount = defineMount({
  name: 'ack-links',
  routes: ({ table, clock, incidents, tenantLive }: AckLinkMountDeps) =>
    composeAckLinks({ table, clock, incidents: incidents.service, tenantLive }).routes,
});

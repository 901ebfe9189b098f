import * as z from 'zod';
import { type LinkAnswer, linkPageRoutes } from '../http/handlers.ts';
import type { PublicRoute } from '../http/types.ts';
import { ackDonePage, ackFormPage, ackInvalidPage, ackUsedPage } from './ack-link-pages.ts';
import type { AckLinkService, AckLinkState } from './ack-link-service.ts';

/**
 * The acknowledgement link (docs/on-call.md "Acknowledge from the message"), without a key: the
 * token in the path is the credential (238 random bits, stored hashed). GET shows the incident and
 * an Acknowledge button and changes nothing (mail scanners prefetch links); POST (the button)
 * acknowledges as the link's person, once. An unknown or expired link is one 404 page; a used one
 * 410. Never cached, never sent on as a referrer, never a cookie; limited per source address.
 */

const params = z.object({
  token: z.string().max(200).meta({ description: 'The link’s secret token' }),
});

/** The page of a link in the state `state` (undefined: the invalid-link page); `fresh` is a live link's. */
function pageOf(
  state: AckLinkState,
  fresh: (view: Extract<AckLinkState, { kind: 'live' }>['view']) => string,
): string | LinkAnswer | undefined {
  switch (state.kind) {
    case 'unknown':
      return undefined;
    case 'used':
      return { status: 410, body: ackUsedPage(state.view, state.usedAt) };
    case 'done':
      return ackDonePage(state.view);
    case 'live':
      return fresh(state.view);
  }
}

export function ackLinkRoutes(deps: { links: AckLinkService }): PublicRoute[] {
  return linkPageRoutes({
    path: '/a/{token}',
    params,
    tag: 'On-call',
    invalid: { description: 'The invalid-link page (HTML): unknown or expired, alike', page: ackInvalidPage },
    otherPages: { 410: 'The used-link page (HTML): when it was used, and who acknowledged the incident' },
    show: {
      operationId: 'getAckLink',
      summary:
        'The page of an acknowledgement link (HTML, no key): the incident’s entity, state and since when, and an Acknowledge button; changes nothing',
      page: async (p) => pageOf(await deps.links.peek(p.token), ackFormPage),
    },
    act: {
      operationId: 'acknowledgeByLink',
      summary:
        'Acknowledge the link’s incident as the person it was sent to (the page’s button; no key; single use, 24 hours; never signs in)',
      page: async (p) => pageOf(await deps.links.acknowledge(p.token), ackDonePage),
    },
  });
}

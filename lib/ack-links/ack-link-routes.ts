import * as z from 'zod';
import { defineRoute } from '../http/define-route.ts';
import { SMALL_PAGE_HEADERS } from '../http/small-page.ts';
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
const html = { contentType: 'text/html', schema: z.string() };
const otherErrors = {
  404: {
    description: 'The invalid-link page (HTML): unknown or expired, alike',
    contentType: 'text/html',
    schema: z.string(),
  },
  410: {
    description: 'The used-link page (HTML): when it was used, and who acknowledged the incident',
    contentType: 'text/html',
    schema: z.string(),
  },
};
const tag = 'On-call';

/** The answer of a link in the state `state`; `fresh` is the page of a live link. */
function answer(
  state: AckLinkState,
  fresh: (view: Extract<AckLinkState, { kind: 'live' }>['view']) => string,
) {
  const page = (status: number, body: string) => new Response(body, { status, headers: SMALL_PAGE_HEADERS });
  switch (state.kind) {
    case 'unknown':
      return page(404, ackInvalidPage());
    case 'used':
      return page(410, ackUsedPage(state.view, state.usedAt));
    case 'done':
      return page(200, ackDonePage(state.view));
    case 'live':
      return page(200, fresh(state.view));
  }
}

export function ackLinkRoutes(deps: { links: AckLinkService }): PublicRoute[] {
  const path = '/a/{token}';
  return [
    defineRoute({
      method: 'GET',
      path,
      auth: 'none',
      limit: 'address',
      operationId: 'getAckLink',
      tag,
      summary:
        'The page of an acknowledgement link (HTML, no key): the incident’s entity, state and since when, and an Acknowledge button; changes nothing',
      schemas: { params, responses: { 200: html }, otherErrors },
      handler: async ({ params: p }) => answer(await deps.links.peek(p.token), ackFormPage),
    }),
    defineRoute({
      method: 'POST',
      path,
      auth: 'none',
      limit: 'address',
      // The page's form posts an empty urlencoded body: never read.
      body: 'raw',
      operationId: 'acknowledgeByLink',
      tag,
      summary:
        'Acknowledge the link’s incident as the person it was sent to (the page’s button; no key; single use, 24 hours; never signs in)',
      schemas: { params, responses: { 200: html }, otherErrors },
      handler: async ({ params: p }) => answer(await deps.links.acknowledge(p.token), ackDonePage),
    }),
  ];
}

import * as z from 'zod';
import { defineRoute, type ParsedParams } from './define-route.ts';
import { SMALL_PAGE_HEADERS } from './small-page.ts';
import type { PublicRoute } from './types.ts';

/** One method of a keyless link: its names in the document and the page it answers. */
interface LinkMethod<P> {
  operationId: string;
  summary: string;
  /** The page to answer (200), or undefined when the link is not (or no longer) valid. */
  page(params: P): Promise<string | undefined>;
}

/**
 * The two routes of a link an e-mail carries (no API key: the token in the path is the credential):
 * GET shows a small page with a button, so a mail scanner that follows links changes nothing; POST
 * (that button, or a mail client's RFC 8058 one-click POST) acts, its body never read. A link its
 * method finds not valid answers the invalid-link page (404). Limited per source address.
 */
export function linkPageRoutes<P extends z.ZodObject>(link: {
  path: string;
  params: P;
  tag: string;
  invalid: { description: string; page: () => string };
  show: LinkMethod<ParsedParams<P>>;
  act: LinkMethod<ParsedParams<P>>;
}): PublicRoute[] {
  const html = { contentType: 'text/html', schema: z.string() };
  const schemas = {
    params: link.params,
    responses: { 200: html },
    // An HTML page for the browser, not the JSON envelope.
    otherErrors: { 404: { description: link.invalid.description, ...html } },
  };
  const answer = (page: string | undefined) =>
    page === undefined
      ? new Response(link.invalid.page(), { status: 404, headers: SMALL_PAGE_HEADERS })
      : new Response(page, { status: 200, headers: SMALL_PAGE_HEADERS });
  const { path, tag } = link;
  return [
    defineRoute({
      method: 'GET',
      path,
      auth: 'none',
      limit: 'address',
      operationId: link.show.operationId,
      tag,
      summary: link.show.summary,
      schemas,
      handler: async ({ params }) => answer(await link.show.page(params)),
    }),
    defineRoute({
      method: 'POST',
      path,
      auth: 'none',
      limit: 'address',
      body: 'raw',
      operationId: link.act.operationId,
      tag,
      summary: link.act.summary,
      schemas,
      handler: async ({ params }) => answer(await link.act.page(params)),
    }),
  ];
}

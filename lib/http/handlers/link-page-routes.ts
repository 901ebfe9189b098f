import * as z from 'zod';
import { defineRoute, type ParsedParams } from '../define-route.ts';
import { SMALL_PAGE_HEADERS } from '../small-page.ts';
import type { PublicRoute } from '../types.ts';

/** A page a link answers with a status of its own (the used-link page, 410). */
export interface LinkAnswer {
  status: number;
  body: string;
}

/** One method of a keyless link: its names in the document and the page it answers. */
interface LinkMethod<P> {
  operationId: string;
  summary: string;
  /** The page to answer (200, or the status it names), or undefined when the link is not (or no longer) valid. */
  page(params: P): Promise<string | LinkAnswer | undefined>;
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
  /** Pages of other statuses a method may answer (LinkAnswer), by status: their descriptions. */
  otherPages?: Record<number, string>;
  show: LinkMethod<ParsedParams<P>>;
  act: LinkMethod<ParsedParams<P>>;
}): PublicRoute[] {
  const html = { contentType: 'text/html', schema: z.string() };
  const others = Object.fromEntries(
    Object.entries(link.otherPages ?? {}).map(([status, description]) => [status, { description, ...html }]),
  );
  const schemas = {
    params: link.params,
    responses: { 200: html },
    // HTML pages for the browser, not the JSON envelope.
    otherErrors: { 404: { description: link.invalid.description, ...html }, ...others },
  };
  const answer = (page: string | LinkAnswer | undefined) => {
    const { status, body } =
      page === undefined
        ? { status: 404, body: link.invalid.page() }
        : typeof page === 'string'
          ? { status: 200, body: page }
          : page;
    return new Response(body, { status, headers: SMALL_PAGE_HEADERS });
  };
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

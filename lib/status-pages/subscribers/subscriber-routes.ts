import { randomUUID } from 'node:crypto';
import * as z from 'zod';
import { entityNamer } from '../../catalog/entities.ts';
import { SLUG } from '../../domain/formats.ts';
import { defineRoute } from '../../http/define-route.ts';
import { parseInput } from '../../http/requests.ts';
import type { PublicRoute, RouteContext } from '../../http/types.ts';
import { ValidationError } from '../../platform/errors.ts';
import type { Table } from '../../store/table.ts';
import { type PageGate, PRIVATE_PAGE_REFUSAL } from '../access/page-gate.ts';
import type { PageHosts } from '../domains/page-hosts.ts';
import type { StatusPageRecord } from '../items/status-page-items.ts';
import { SUBSCRIBER_LIMITS } from '../items/subscriber-items.ts';
import { renderNotFound } from '../public/render-html.ts';
import {
  confirmedPage,
  confirmFormPage,
  invalidLinkPage,
  managePage,
  SUBSCRIBER_PAGE_HEADERS,
  savedPage,
  subscribeAcceptedPage,
} from '../public/subscriber-pages.ts';
import type { PageJobQueue } from './page-jobs.ts';
import type { FindPage, SubscribeService } from './subscribe-service.ts';
import type { SubscriberWebhooks } from './subscriber-webhooks.ts';

/**
 * The keyless routes of a page's subscribers, limited per source address by the router: the
 * subscribe form's POST (and its JSON twin), the confirmation link (GET shows a button, POST
 * confirms: mail scanners prefetch GETs) and the manage link, which is also the List-Unsubscribe
 * URL of every notice (RFC 8058: a POST of `List-Unsubscribe=One-Click` unsubscribes, no cookie).
 * A subscription's answer is the same 202 whatever the address, so none says whether an address
 * is subscribed, and it comes first: the route only enqueues the request (a `page_subscribe` job,
 * page-jobs.ts), so no lookup of the address runs before the answer, in either runtime, and its
 * time tells nothing either. Unknown, used and expired links are the same 404 page. Without a way
 * to send mail (no transport or no sender) the route refuses every subscription, saying so: the
 * confirmation every one needs could not go out (the public page then shows no form).
 */

/** The refusal of every subscription where this deployment cannot send mail. */
const SUBSCRIBE_MAIL_OFF =
  'subscribing by e-mail is off: this deployment sends no mail (the operator must configure e-mail: VIGIL_SMTP_URL and VIGIL_EMAIL_FROM locally, emailFrom in the cloud)';

const tag = 'Public status pages';
const params = z.object({ slug: z.string().max(200).meta({ description: 'The page’s slug' }) });
const linkParams = params.extend({
  token: z.string().max(200).meta({ description: 'The token of the link emailed to the subscriber' }),
});
const html = { contentType: 'text/html', schema: z.string() };
const notFound = { 404: { description: 'An unknown page or link (HTML)', ...html } };

const components = z
  .union([z.literal('all'), z.array(z.string().max(100)).min(1).max(SUBSCRIBER_LIMITS.components)])
  .meta({ description: '`all` (default) or the ids of the page’s entities to be told about' });

/** The subscribe request: the form's fields, or the same as JSON. */
const subscribeForm = z.strictObject({
  email: z.email().max(SUBSCRIBER_LIMITS.address).meta({ description: 'The address to confirm and tell' }),
  components: components.optional(),
  url: z
    .url({ protocol: /^https?$/ })
    .max(SUBSCRIBER_LIMITS.url)
    .optional()
    .meta({ description: 'A webhook to call with each update, once the address confirmed it' }),
});

/** The fields of a urlencoded body; `components` may repeat (the manage page's checkboxes). */
function formFields(raw: Buffer): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  const chosen: string[] = [];
  for (const [name, value] of new URLSearchParams(raw.toString('utf8'))) {
    if (name === 'components') chosen.push(value);
    else fields[name] = value;
  }
  if (chosen.length > 0) fields.components = chosen.includes('all') ? 'all' : chosen;
  return fields;
}

const isJson = (ctx: RouteContext) => (ctx.headers['content-type'] ?? '').toLowerCase().includes('json');

function parseBody(ctx: RouteContext): unknown {
  if (!isJson(ctx)) return formFields(ctx.rawBody);
  try {
    return JSON.parse(ctx.rawBody.toString('utf8'));
  } catch {
    return '(not JSON)';
  }
}

const answer = (status: number, text: string) =>
  new Response(text, { status, headers: SUBSCRIBER_PAGE_HEADERS });
const invalid = () => answer(404, invalidLinkPage());
const unknownPage = () => answer(404, renderNotFound());

export function subscriberRoutes(deps: {
  table: Table;
  findPage: FindPage;
  subscribe: SubscribeService;
  webhooks: Pick<SubscriberWebhooks, 'secretOf'>;
  /** A password page takes subscriptions only from a visitor it has let in (the links need no cookie). */
  gate: Pick<PageGate, 'guard'>;
  /** On its custom domain the page is `/`: the answer links back there. */
  pageHosts: PageHosts;
  /** The notify queue: each request is a `page_subscribe` job, worked after the answer. */
  queue: PageJobQueue;
  /** Whether this deployment can send mail (a transport and a sender); false: subscriptions are refused. */
  mail: boolean;
}): PublicRoute[] {
  const pageOf = (slug: string) => (SLUG.test(slug) ? deps.findPage(slug) : Promise.resolve(undefined));
  const entitiesOf = async (page: StatusPageRecord) =>
    (await entityNamer(deps.table, page.tenant_id, page.entity_ids))(page.entity_ids);

  /** The subscription itself, once the page's gate let the visitor through. */
  const subscribe = async (ctx: RouteContext & { params: { slug: string } }): Promise<Response> => {
    const page = await pageOf(ctx.params.slug);
    if (!page) return unknownPage();
    if (!deps.mail) throw new ValidationError(SUBSCRIBE_MAIL_OFF);
    const body = parseInput(subscribeForm, parseBody(ctx));
    // What the page shows is checked now (it tells nothing of an address); the rest after the answer.
    const components = deps.subscribe.checkComponents(page, body.components ?? 'all');
    const request = {
      kind: body.url ? ('webhook' as const) : ('email' as const),
      address: body.email,
      url: body.url ?? null,
      components,
    };
    const { failed } = await deps.queue.enqueue([
      {
        id: `psr:${randomUUID()}`,
        body: { kind: 'page_subscribe', tenant_id: page.tenant_id, page: page.slug, request },
      },
    ]);
    if (failed.length > 0) throw new Error('the subscription request could not be queued');
    if (isJson(ctx))
      return new Response(JSON.stringify({ status: 'accepted' }), {
        status: 202,
        headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
      });
    return answer(
      202,
      subscribeAcceptedPage(page.title, deps.pageHosts.linksOf(page.slug, ctx.headers).home),
    );
  };

  return [
    defineRoute({
      method: 'POST',
      path: '/p/{slug}/subscribe',
      auth: 'none',
      limit: 'address',
      body: 'raw',
      operationId: 'subscribeToStatusPage',
      tag,
      summary:
        'Subscribe to a status page by email (or a webhook an email confirms): 202 whether or not the address is known, answered before the address is looked at; 400 where the deployment sends no mail',
      schemas: {
        params,
        rawBody: { contentType: 'application/x-www-form-urlencoded', schema: subscribeForm },
        responses: {
          202: { ...html, also: { 'application/json': z.object({ status: z.literal('accepted') }) } },
        },
        errors: ['VALIDATION_ERROR'],
        otherErrors: { ...notFound, ...PRIVATE_PAGE_REFUSAL },
      },
      handler: (ctx) => deps.gate.guard(ctx.params.slug, ctx, () => subscribe(ctx)),
    }),
    defineRoute({
      method: 'GET',
      path: '/p/{slug}/confirm/{token}',
      auth: 'none',
      limit: 'address',
      operationId: 'getStatusPageSubscriptionConfirmation',
      tag,
      summary:
        'The page of a subscription’s confirmation link (HTML): what is confirmed, and a Confirm button',
      schemas: { params: linkParams, responses: { 200: html }, otherErrors: notFound },
      handler: async ({ params: p }) => {
        const page = await pageOf(p.slug);
        const found = page && (await deps.subscribe.peekConfirm(page, p.token));
        if (!page || !found) return invalid();
        return answer(200, confirmFormPage(page.title, found));
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/p/{slug}/confirm/{token}',
      auth: 'none',
      limit: 'address',
      // The page's form posts an empty urlencoded body: never read.
      body: 'raw',
      operationId: 'confirmStatusPageSubscription',
      tag,
      summary: 'Confirm a subscription by its link’s token (the page’s button; single use, expiring)',
      schemas: { params: linkParams, responses: { 200: html }, otherErrors: notFound },
      handler: async ({ params: p }) => {
        const page = await pageOf(p.slug);
        const done = page && (await deps.subscribe.confirm(page, p.token));
        if (!page || !done) return invalid();
        // A webhook's signing secret is shown to whoever confirmed it, on this page only.
        const secret = done.kind === 'webhook' ? await deps.webhooks.secretOf(done) : undefined;
        return answer(200, confirmedPage(page.title, secret));
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/p/{slug}/subscription/{token}',
      auth: 'none',
      limit: 'address',
      operationId: 'getStatusPageSubscription',
      tag,
      summary: 'A subscriber’s manage page (HTML): the components it is told about, and Unsubscribe',
      schemas: { params: linkParams, responses: { 200: html }, otherErrors: notFound },
      handler: async ({ params: p }) => {
        const page = await pageOf(p.slug);
        const found = page && (await deps.subscribe.managed(page, p.token));
        if (!page || !found) return invalid();
        return answer(200, managePage(page.title, found, await entitiesOf(page)));
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/p/{slug}/subscription/{token}',
      auth: 'none',
      limit: 'address',
      body: 'raw',
      operationId: 'changeStatusPageSubscription',
      tag,
      summary:
        'Unsubscribe (RFC 8058 one-click: `List-Unsubscribe=One-Click`, or `action=unsubscribe`) or pick components (`action=components`)',
      schemas: {
        params: linkParams,
        rawBody: {
          contentType: 'application/x-www-form-urlencoded',
          schema: z.strictObject({
            'List-Unsubscribe': z.literal('One-Click').optional(),
            action: z.enum(['unsubscribe', 'components']).optional(),
            components: components.optional(),
          }),
        },
        responses: { 200: html },
        errors: ['VALIDATION_ERROR'],
        otherErrors: notFound,
      },
      handler: async (ctx) => {
        const p = ctx.params;
        const page = await pageOf(p.slug);
        if (!page) return invalid();
        const form = formFields(ctx.rawBody.subarray(0, 20_000));
        if (form.action === 'components') {
          const chosen = parseInput(components, form.components ?? 'all');
          const saved = await deps.subscribe.setComponents(page, p.token, chosen);
          return saved ? answer(200, savedPage(page.title)) : invalid();
        }
        // One-click (RFC 8058), the page's Unsubscribe button, or a POST of nothing: unsubscribes.
        const gone = await deps.subscribe.unsubscribe(page, p.token);
        if (!gone) return invalid();
        return answer(200, managePage(page.title, gone, []));
      },
    }),
  ];
}

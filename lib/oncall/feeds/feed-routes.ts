import * as z from 'zod';
import { defineRoute } from '../../http/define-route.ts';
import type { HostPolicy } from '../../http/origin-policy.ts';
import { publicOrigin } from '../../http/policies.ts';
import { idSchema, namesResource, timestampSchema } from '../../http/route-schemas.ts';
import {
  type AuthedRoute,
  created,
  noContent,
  ok,
  type PublicRoute,
  type RouteContext,
} from '../../http/types.ts';
import { ForbiddenError } from '../../platform/errors.ts';
import { personSchema, userNamer } from '../schedule-responses.ts';
import { scheduleParams } from '../schedule-schemas.ts';
import { bodyEtag, FEED_DAYS_AHEAD, FEED_DAYS_BACK, MAX_FEED_EVENTS } from './feed-calendar.ts';
import { MAX_FEEDS_PER_SCHEDULE, MAX_PERSON_FEEDS_PER_USER } from './feed-items.ts';
import type { FeedService, FeedView } from './feed-service.ts';

const tag = 'On-call';

const feedSchema = z
  .strictObject({
    id: idSchema('icf'),
    kind: z.enum(['schedule', 'person']).meta({
      description: 'schedule: the schedule’s final shifts; person: the person’s shifts in every schedule',
    }),
    label: z.string(),
    prefix: z.string().meta({ description: 'The first characters of the URL’s token, to tell feeds apart' }),
    schedule: z
      .strictObject({ id: idSchema('sch'), name: z.string() })
      .nullable()
      .meta({ description: 'The schedule a schedule feed follows; null for a person feed' }),
    user: personSchema.meta({ description: 'Who made it: the person of a person feed' }),
    created_at: timestampSchema,
  })
  .meta({ id: 'CalendarFeed' });

const createdFeedSchema = feedSchema
  .extend({
    token: z.string().meta({ description: 'The URL’s secret: shown in this response only, never again' }),
    url: z.string().nullable().meta({
      description:
        'The feed’s URL (`<VIGIL_PUBLIC_URL>/ical/<token>.ics`, or on the address this request came in on); null when neither is known',
    }),
  })
  .meta({ id: 'CreatedCalendarFeed' });

const feedBody = z
  .strictObject({
    label: z
      .string()
      .regex(/\S/, 'This field is required.')
      .trim()
      .max(100)
      .optional()
      .meta({ description: 'What the feed is for (default: the schedule’s name, or “My on-call shifts”)' }),
  })
  .optional();

const feedParams = z.object({ id: namesResource(idSchema('icf'), 'calendar feed') });

/** The feed's answer: never its hash; the token only where the caller just made it. */
function publicFeed({ record, schedule, users }: FeedView): z.infer<typeof feedSchema> {
  return {
    id: record.id,
    kind: record.kind,
    label: record.label,
    prefix: record.prefix,
    schedule: record.schedule_id ? { id: record.schedule_id, name: schedule?.name ?? '' } : null,
    user: userNamer(users)(record.user_id),
    created_at: record.created_at,
  };
}

/**
 * The origin of the feed URL shown to its maker: VIGIL_PUBLIC_URL's, else the address this request
 * came in on (a Host the server is known by), else null. It only builds this answer's URL.
 */
function feedOrigin(hosts: HostPolicy, ctx: Pick<RouteContext, 'headers' | 'platformHost'>): string | null {
  try {
    return publicOrigin(hosts, ctx);
  } catch (error) {
    if (error instanceof ForbiddenError) return null;
    throw error;
  }
}

/**
 * Calendar feeds (docs/on-call.md "Calendar feeds"): admins make a schedule's feed, anyone their
 * own person feed; list and revoke (admins every feed, members their own).
 */
export function feedRoutes(deps: { feeds: FeedService; hosts: HostPolicy }): AuthedRoute[] {
  const { feeds } = deps;
  const createdReply = (ctx: RouteContext, made: { view: FeedView; token: string }) => {
    const origin = feedOrigin(deps.hosts, ctx);
    return created({
      ...publicFeed(made.view),
      token: made.token,
      url: origin === null ? null : `${origin}/ical/${made.token}.ics`,
    });
  };
  return [
    defineRoute({
      method: 'POST',
      path: '/v1/schedules/{id}/feeds',
      auth: 'key',
      role: 'admin',
      operationId: 'createScheduleFeed',
      tag,
      summary: `Make a secret iCal URL of a schedule’s final shifts (at most ${MAX_FEEDS_PER_SCHEDULE} per schedule); its token is in this response only`,
      schemas: {
        params: scheduleParams,
        body: feedBody,
        responses: { 201: createdFeedSchema },
        errors: ['LIMIT_EXCEEDED'],
      },
      handler: async (ctx) =>
        createdReply(ctx, await feeds.createForSchedule(ctx.principal, ctx.params.id, ctx.body?.label)),
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/calendar-feeds',
      auth: 'key',
      operationId: 'createPersonFeed',
      tag,
      summary: `Make a secret iCal URL of your own shifts in every schedule (at most ${MAX_PERSON_FEEDS_PER_USER}); its token is in this response only`,
      schemas: { body: feedBody, responses: { 201: createdFeedSchema }, errors: ['LIMIT_EXCEEDED'] },
      handler: async (ctx) => createdReply(ctx, await feeds.createForPerson(ctx.principal, ctx.body?.label)),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/calendar-feeds',
      auth: 'key',
      operationId: 'listCalendarFeeds',
      tag,
      summary: 'Calendar feeds, oldest first: an admin sees every feed, anyone else their own person feeds',
      schemas: { responses: { 200: z.strictObject({ feeds: z.array(feedSchema) }) } },
      handler: async ({ principal }) => ok({ feeds: (await feeds.list(principal)).map(publicFeed) }),
    }),
    defineRoute({
      method: 'DELETE',
      path: '/v1/calendar-feeds/{id}',
      auth: 'key',
      operationId: 'revokeCalendarFeed',
      tag,
      summary:
        'Revoke a calendar feed (an admin any; anyone else their own): its URL answers 404 from now on',
      schemas: { params: feedParams, responses: { 204: null } },
      handler: async ({ principal, params }) => {
        await feeds.revoke(principal, params.id);
        return noContent();
      },
    }),
  ];
}

/** Headers of every answer of a feed URL: its path is a secret, so it is never sent on as a referrer. */
const FEED_HEADERS = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'",
  'referrer-policy': 'no-referrer',
};

/**
 * GET /ical/{token}.ics, without a key: the token is the credential (one lookup by its hash, as for
 * API keys), limited per source address by the router. Cached by the calendar for five minutes and
 * revalidated by ETag; never by a shared cache (`private`: the URL is a secret). Anything that is
 * not a live feed is the same 404, never cached.
 */
export function feedCalendarRoute(deps: { feeds: FeedService }): PublicRoute {
  return defineRoute({
    method: 'GET',
    path: '/ical/{token}.ics',
    auth: 'none',
    limit: 'address',
    operationId: 'getCalendarFeed',
    tag,
    summary: `A calendar feed (iCalendar, RFC 5545): the final shifts from ${FEED_DAYS_BACK} days back to ${FEED_DAYS_AHEAD} days ahead, one event per shift (at most ${MAX_FEED_EVENTS}), times in UTC`,
    schemas: {
      params: z.object({ token: z.string().max(200).meta({ description: 'The feed’s secret token' }) }),
      headers: z.object({
        'if-none-match': z
          .string()
          .max(2000)
          .regex(/^[\x20-\x7e]*$/, 'Give entity tags, as an ETag header gives them.')
          .optional()
          .meta({ description: 'The ETag of the copy the calendar holds: 304 when it is current' }),
      }),
      responses: { 200: { contentType: 'text/calendar', schema: z.string() }, 304: null },
      responseHeaders: {
        etag: { description: 'The body’s SHA-256', schema: { type: 'string' } },
        'cache-control': { description: '`private, max-age=300`', schema: { type: 'string' } },
      },
    },
    handler: async ({ params, headers }) => {
      const body = await deps.feeds.calendar(params.token);
      if (body === undefined)
        return new Response(JSON.stringify({ error: 'calendar feed not found', code: 'NOT_FOUND' }), {
          status: 404,
          headers: {
            ...FEED_HEADERS,
            'cache-control': 'no-store',
            'content-type': 'application/json; charset=utf-8',
          },
        });
      const etag = bodyEtag(body);
      const cached = { ...FEED_HEADERS, 'cache-control': 'private, max-age=300', etag };
      const named = (headers['if-none-match'] ?? '').split(',').map((tag) => tag.trim());
      if (named.includes(etag) || named.includes(`W/${etag}`))
        return new Response(null, { status: 304, headers: cached });
      return new Response(body, {
        status: 200,
        headers: { ...cached, 'content-type': 'text/calendar; charset=utf-8' },
      });
    },
  });
}

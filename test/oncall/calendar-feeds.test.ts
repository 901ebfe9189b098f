import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { type Joined, join, userIdOf } from '../auth/team-helpers.ts';
import { type ApiHarness, bothRuntimes } from '../support/api-harness.ts';
import { berlinTwoLayerRota } from './support/rotas.ts';

/**
 * Calendar feeds of on-call schedules (/v1/schedules/{id}/feeds, /v1/calendar-feeds and the
 * keyless /ical/{token}.ics), on both runtimes: the tokens are stored only as lookups by hash, so
 * each engine's get by hash is the credential check. A feed's events, parsed back from the
 * iCalendar text, are the shifts /oncall?from=&to= answers for the feed's window (seven days back
 * to sixty ahead), across Europe/Berlin's spring change; a person feed holds that person's shifts
 * of every schedule. Revoking, deleting the schedule, the maker leaving and the tenant disabled
 * all answer 404 at once; members see and revoke their own person feeds only; read-only keys and
 * other tenants write nothing.
 */

// Saturday 28 March 2026, 12:00 UTC: Berlin moves to summer time the next night.
const T0 = Date.parse('2026-03-28T12:00:00.000Z');
// The feed's window at T0: 00:00 UTC seven days back to 00:00 UTC after the sixtieth day ahead.
const FROM = '2026-03-21T00:00:00.000Z';
const TO = '2026-05-28T00:00:00.000Z';

interface Event {
  uid: string;
  start: string;
  end: string;
  summary: string;
  description: string;
}

/** An iCalendar basic UTC time (20260329T070000Z) as ISO 8601. */
const isoOf = (value: string) =>
  value.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6.000Z');

/** RFC 5545 TEXT unescaped. */
const text = (value: string) =>
  value.replace(/\\([\\;,nN])/g, (_m, c: string) => (c === 'n' || c === 'N' ? '\n' : c));

/**
 * Reads an iCalendar body as RFC 5545 lays it out: CRLF lines, folded lines unfolded, one
 * VCALENDAR of VEVENTs; every VEVENT must have UID, DTSTART and DTEND (UTC) and DTSTAMP.
 */
function parseCalendar(body: string): { props: Map<string, string>; events: Event[] } {
  expect(body.endsWith('\r\n')).toBe(true);
  const lines = body
    .replace(/\r\n[ \t]/g, '')
    .split('\r\n')
    .filter((line) => line !== '');
  expect(lines[0]).toBe('BEGIN:VCALENDAR');
  expect(lines.at(-1)).toBe('END:VCALENDAR');
  const props = new Map<string, string>();
  const events: Event[] = [];
  let event: Map<string, string> | undefined;
  for (const line of lines.slice(1, -1)) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).split(';')[0] ?? '';
    const value = line.slice(colon + 1);
    if (line === 'BEGIN:VEVENT') event = new Map();
    else if (line === 'END:VEVENT') {
      if (!event) throw new Error('END:VEVENT without BEGIN');
      for (const required of ['UID', 'DTSTAMP', 'DTSTART', 'DTEND'])
        expect(event.has(required), required).toBe(true);
      expect(event.get('DTSTART')).toMatch(/^\d{8}T\d{6}Z$/);
      expect(event.get('DTEND')).toMatch(/^\d{8}T\d{6}Z$/);
      events.push({
        uid: event.get('UID') ?? '',
        start: isoOf(event.get('DTSTART') ?? ''),
        end: isoOf(event.get('DTEND') ?? ''),
        summary: text(event.get('SUMMARY') ?? ''),
        description: text(event.get('DESCRIPTION') ?? ''),
      });
      event = undefined;
    } else (event ?? props).set(name, value);
  }
  expect(event).toBeUndefined();
  return { props, events };
}

describe.each(bothRuntimes)('on-call calendar feeds ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let admin = '';
  let ann: Joined;
  let bob: Joined;
  const clock = createFakeClock(T0);
  const req = (method: string, path: string, body?: unknown, key = api.adminKey) =>
    api.request(method, path, { key, body });
  /** The feed at `url`'s path, keyless. */
  const fetchFeed = (url: string, headers: Record<string, string> = {}) =>
    api.request('GET', new URL(url).pathname, { headers });

  const primary = () => berlinTwoLayerRota({ daily: [ann.userId, bob.userId], office: admin });
  /** A second schedule in New York where ann and the admin take weeks in turn. */
  const secondary = () => ({
    name: 'Secondary, US',
    time_zone: 'America/New_York',
    layers: [
      {
        name: 'Weekly',
        members: [admin, ann.userId],
        rotation: { type: 'weekly', handoff: '10:00', start: '2026-03-02' },
      },
    ],
  });

  /** The shifts /oncall answers for the feed's window, as [user id, start, end]. */
  const shiftsOf = async (scheduleId: string) => {
    const answer = await req('GET', `/v1/schedules/${scheduleId}/oncall?from=${FROM}&to=${TO}`);
    expect(answer.status, answer.text).toBe(200);
    return answer.body.shifts.map((s: { user: { id: string }; start: string; end: string }) => ({
      scheduleId,
      userId: s.user.id,
      start: s.start,
      end: s.end,
    }));
  };
  /** An event as the shift it stands for: its UID names the schedule and the person. */
  const shiftOfEvent = (event: Event) => {
    const [, scheduleId, userId] = /^oncall-(sch_\w+)-(usr_\w+)-\d+@vigil$/.exec(event.uid) ?? [];
    return { scheduleId, userId, start: event.start, end: event.end };
  };

  beforeAll(async () => {
    api = await start({ clock });
    admin = await userIdOf(api, api.adminKey);
    ann = await join(api, api.adminKey, { role: 'member' });
    bob = await join(api, api.adminKey, { role: 'member' });
  });
  afterAll(async () => api?.close());

  it('serves a schedule feed whose events are the final shifts of its window, across the DST change', async () => {
    const schedule = (await req('POST', '/v1/schedules', primary())).body;
    const made = await req('POST', `/v1/schedules/${schedule.id}/feeds`, { label: 'Team calendar' });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({
      id: expect.stringMatching(/^icf_/),
      kind: 'schedule',
      label: 'Team calendar',
      schedule: { id: schedule.id, name: 'Primary' },
      user: { id: admin },
    });
    expect(made.body.token).toMatch(/^vcal_[0-9A-Za-z]{40}$/);
    expect(made.body.prefix).toBe(made.body.token.slice(0, 11));
    expect(made.body.url).toMatch(new RegExp(`/ical/${made.body.token}\\.ics$`));

    const feed = await fetchFeed(made.body.url);
    expect(feed.status, feed.text).toBe(200);
    expect(feed.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(feed.headers['cache-control']).toBe('private, max-age=300');
    expect(feed.headers['referrer-policy']).toBe('no-referrer');
    const { props, events } = parseCalendar(feed.text);
    expect(props.get('VERSION')).toBe('2.0');
    expect(props.get('X-WR-CALNAME')).toBe('Primary: on call');

    const expected = await shiftsOf(schedule.id);
    expect(expected.length).toBeGreaterThan(60);
    expect(events.map(shiftOfEvent)).toEqual(expected);
    // The night of the change: bob's shift from Saturday 09:00 CET to Sunday 09:00 CEST is 23 hours.
    expect(events).toContainEqual(
      expect.objectContaining({
        start: '2026-03-28T08:00:00.000Z',
        end: '2026-03-29T07:00:00.000Z',
        summary: 'On call: New Member',
        description: 'Primary · Layer: Everyone',
      }),
    );
    expect(new Set(events.map((e) => e.uid)).size).toBe(events.length);
    // The URL is the credential: the request log names the route, never the token.
    expect(api.logs.join('\n')).toContain('/ical/{token}.ics');
    expect(api.logs.join('\n')).not.toContain(made.body.token.slice(5));

    // Fetched again, the same bytes: the same ETag, and 304 for the copy the calendar holds.
    const again = await fetchFeed(made.body.url);
    expect(again.text).toBe(feed.text);
    expect(feed.headers.etag).toMatch(/^"[\w-]{43}"$/);
    const current = await fetchFeed(made.body.url, { 'if-none-match': feed.headers.etag ?? '' });
    expect(current.status).toBe(304);
    expect(current.text).toBe('');
    // An override changes the feed, and so its ETag.
    await req('POST', `/v1/schedules/${schedule.id}/overrides`, {
      user_id: admin,
      starts_at: '2026-04-01T00:00:00Z',
      ends_at: '2026-04-02T00:00:00Z',
    });
    const changed = await fetchFeed(made.body.url, { 'if-none-match': feed.headers.etag ?? '' });
    expect(changed.status).toBe(200);
    expect(parseCalendar(changed.text).events.map(shiftOfEvent)).toEqual(await shiftsOf(schedule.id));
  });

  it('serves a person feed with that person’s shifts of every schedule, and no one else’s', async () => {
    const first = (await req('POST', '/v1/schedules', primary())).body;
    const second = (await req('POST', '/v1/schedules', secondary())).body;
    const made = await req('POST', '/v1/calendar-feeds', undefined, ann.key);
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({ kind: 'person', schedule: null, user: { id: ann.userId } });

    const feed = await fetchFeed(made.body.url);
    expect(feed.status, feed.text).toBe(200);
    const { events } = parseCalendar(feed.text);
    // Every schedule of the tenant (earlier tests' too), ann's shifts only, in time order.
    const schedules: { id: string }[] = (await req('GET', '/v1/schedules')).body.schedules;
    const all = (await Promise.all(schedules.map((s) => shiftsOf(s.id)))).flat();
    const hers = all
      .filter((s: { userId: string }) => s.userId === ann.userId)
      .sort((a: { start: string }, b: { start: string }) => a.start.localeCompare(b.start));
    expect(events.map(shiftOfEvent).sort((a, b) => a.start.localeCompare(b.start))).toEqual(hers);
    expect(schedules.map((s) => s.id)).toEqual(expect.arrayContaining([first.id, second.id]));
    expect(new Set(events.map((e) => shiftOfEvent(e).scheduleId))).toEqual(
      new Set(schedules.map((s) => s.id)),
    );
    expect(events.find((e) => shiftOfEvent(e).scheduleId === second.id)?.summary).toBe(
      'On call: Secondary, US',
    );
  });

  it('stores only the token’s hash and never shows the token again', async () => {
    const made = (await req('POST', '/v1/calendar-feeds', { label: 'Phone' }, bob.key)).body;
    const listed = await req('GET', '/v1/calendar-feeds', undefined, bob.key);
    expect(listed.text).not.toContain(made.token);
    expect(listed.body.feeds).toEqual([
      expect.objectContaining({ id: made.id, label: 'Phone', prefix: made.prefix }),
    ]);
    const hash = createHash('sha256').update(made.token).digest('hex');
    const lookup = await api.table.get({ pk: `ICALTOKEN#${hash}`, sk: 'LOOKUP' }, { consistent: true });
    expect(lookup).toMatchObject({ id: made.id, token_hash: hash });
    const stored = await api.table.query({ pk: `TENANT#${api.tenantId}`, consistent: true });
    expect(JSON.stringify([lookup, stored.items])).not.toContain(made.token.slice(5));
  });

  it('keeps schedule feeds to admins, person feeds to their person, and writes to read-write keys', async () => {
    const schedule = (await req('POST', '/v1/schedules', primary())).body;
    expect((await req('POST', `/v1/schedules/${schedule.id}/feeds`, undefined, ann.key)).status).toBe(403);
    const readOnly = (await req('POST', '/v1/auth/keys', { label: 'viewer', is_read_only: true })).body.key;
    const refused = await req('POST', '/v1/calendar-feeds', undefined, readOnly);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('READ_ONLY');
    expect((await req('POST', `/v1/schedules/${schedule.id}/feeds`, undefined, readOnly)).status).toBe(403);

    const teamFeed = (await req('POST', `/v1/schedules/${schedule.id}/feeds`)).body;
    const annFeed = (await req('POST', '/v1/calendar-feeds', { label: 'Ann’s' }, ann.key)).body;
    const bobFeed = (await req('POST', '/v1/calendar-feeds', undefined, bob.key)).body;

    const ids = async (key: string) =>
      (await req('GET', '/v1/calendar-feeds', undefined, key)).body.feeds.map((f: { id: string }) => f.id);
    const annSees = await ids(ann.key);
    expect(annSees).toContain(annFeed.id);
    expect(annSees).not.toContain(bobFeed.id);
    expect(annSees).not.toContain(teamFeed.id);
    expect(await ids(api.adminKey)).toEqual(expect.arrayContaining([teamFeed.id, annFeed.id, bobFeed.id]));
    // What a member may not see, they cannot revoke: 404, and the feed still answers.
    expect((await req('DELETE', `/v1/calendar-feeds/${bobFeed.id}`, undefined, ann.key)).status).toBe(404);
    expect((await req('DELETE', `/v1/calendar-feeds/${teamFeed.id}`, undefined, ann.key)).status).toBe(404);
    expect((await req('DELETE', `/v1/calendar-feeds/${annFeed.id}`, undefined, readOnly)).status).toBe(403);
    expect((await fetchFeed(bobFeed.url)).status).toBe(200);

    // Revoked by its person, or by an admin: 404 at once, and not cached.
    expect((await req('DELETE', `/v1/calendar-feeds/${annFeed.id}`, undefined, ann.key)).status).toBe(204);
    const gone = await fetchFeed(annFeed.url);
    expect(gone.status).toBe(404);
    expect(gone.headers['cache-control']).toBe('no-store');
    expect((await req('DELETE', `/v1/calendar-feeds/${annFeed.id}`, undefined, ann.key)).status).toBe(404);
    expect((await req('DELETE', `/v1/calendar-feeds/${bobFeed.id}`)).status).toBe(204);
    expect((await fetchFeed(bobFeed.url)).status).toBe(404);
    expect((await fetchFeed(teamFeed.url)).status).toBe(200);
    // Deleting the schedule revokes its feeds.
    expect((await req('DELETE', `/v1/schedules/${schedule.id}`)).status).toBe(204);
    expect((await fetchFeed(teamFeed.url)).status).toBe(404);
    expect(await ids(api.adminKey)).not.toContain(teamFeed.id);
  });

  it('answers the same 404 for a wrong, malformed or foreign token and hides feeds from other tenants', async () => {
    const schedule = (await req('POST', '/v1/schedules', primary())).body;
    const feed = (await req('POST', `/v1/schedules/${schedule.id}/feeds`)).body;
    const wrong = `vcal_${'A'.repeat(40)}`;
    for (const path of [`/ical/${wrong}.ics`, '/ical/nonsense.ics', `/ical/${feed.token}x.ics`]) {
      const answer = await api.request('GET', path);
      expect(answer.status, path).toBe(404);
      expect(answer.body).toEqual({ error: 'calendar feed not found', code: 'NOT_FOUND' });
    }

    const other = await api.createTenant('Other');
    expect((await req('POST', `/v1/schedules/${schedule.id}/feeds`, undefined, other.key)).status).toBe(404);
    expect((await req('GET', '/v1/calendar-feeds', undefined, other.key)).body.feeds).toEqual([]);
    expect((await req('DELETE', `/v1/calendar-feeds/${feed.id}`, undefined, other.key)).status).toBe(404);
    // The other tenant's own person feed shows its own people only.
    const theirs = (await req('POST', '/v1/calendar-feeds', undefined, other.key)).body;
    expect(parseCalendar((await fetchFeed(theirs.url)).text).events).toEqual([]);
    expect((await fetchFeed(feed.url)).status).toBe(200);

    // A tenant the operator disabled: its feeds answer as unknown.
    await api.operator(['tenant', 'disable', other.tenantId]);
    expect((await fetchFeed(theirs.url)).status).toBe(404);
  });

  it('stops a person’s feeds when they leave the account', async () => {
    const carol = await join(api, api.adminKey, { role: 'member' });
    const feed = (await req('POST', '/v1/calendar-feeds', undefined, carol.key)).body;
    expect((await fetchFeed(feed.url)).status).toBe(200);
    expect((await req('DELETE', `/v1/settings/users/${carol.userId}`)).status).toBe(204);
    expect((await fetchFeed(feed.url)).status).toBe(404);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';

/**
 * A window's status-page notice through /v1/maintenance: announce, announce_from (one-off, at or
 * before the start), announce_lead_seconds (recurring, default a day) and public_note (at most
 * 2,000 characters) are stored and answered; each bad value is a 400 naming its field, and a
 * refused request changes nothing; announced_at is when announce turned on and stays while it is.
 */

const T0 = Date.parse('2026-06-01T12:00:00.000Z');
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe.each(runtimes)('maintenance notices in the API ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let entityId = '';
  const clock = createFakeClock(T0);
  const req = (method: string, path: string, body?: unknown) =>
    api.request(method, path, { key: api.adminKey, body });
  const oneOff = (extra: Record<string, unknown> = {}) => ({
    name: 'Upgrade',
    entity_ids: [entityId],
    starts_at: iso(T0 + 2 * HOUR),
    ends_at: iso(T0 + 3 * HOUR),
    ...extra,
  });
  const recurring = (extra: Record<string, unknown> = {}) => ({
    name: 'Nightly',
    entity_ids: [entityId],
    cron: '0 3 * * *',
    duration_seconds: 1800,
    ...extra,
  });

  beforeAll(async () => {
    api = await start({ clock });
    await req('POST', '/v1/blueprints', { slug: 'service', name: 'Service' });
    entityId = (await req('POST', '/v1/blueprints/service/entities', { slug: 'db', name: 'Database' })).body
      .id;
  });
  afterAll(async () => {
    await api?.close();
  });

  it('stores no notice by default: not announced, nothing set, a recurring window a day’s lead', async () => {
    const once = await req('POST', '/v1/maintenance', oneOff());
    expect(once.status, once.text).toBe(201);
    expect(once.body).toMatchObject({
      announce: false,
      announce_from: null,
      announce_lead_seconds: null,
      announced_at: null,
      public_note: null,
    });
    const nightly = await req('POST', '/v1/maintenance', recurring());
    expect(nightly.body).toMatchObject({ announce: false, announce_lead_seconds: 86_400 });
    for (const id of [once.body.id, nightly.body.id]) await req('DELETE', `/v1/maintenance/${id}`);
  });

  it('stores an announced window with its time, note and when it was announced, and keeps that time while announced', async () => {
    const created = await req(
      'POST',
      '/v1/maintenance',
      oneOff({ announce: true, announce_from: iso(T0 + HOUR), public_note: '  We *upgrade* it.  ' }),
    );
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      announce: true,
      announce_from: iso(T0 + HOUR),
      announced_at: iso(T0),
      public_note: 'We *upgrade* it.',
    });
    const id = created.body.id;
    clock.advance(60_000);
    const kept = await req('PUT', `/v1/maintenance/${id}`, oneOff({ announce: true, public_note: 'Later.' }));
    expect(kept.body).toMatchObject({ announce_from: null, announced_at: iso(T0), public_note: 'Later.' });
    const off = await req('PUT', `/v1/maintenance/${id}`, oneOff({ public_note: '   ' }));
    expect(off.body).toMatchObject({ announce: false, announced_at: null, public_note: null });
    clock.advance(60_000);
    const again = await req('PUT', `/v1/maintenance/${id}`, oneOff({ announce: true }));
    expect(again.body.announced_at).toBe(iso(T0 + 120_000));
    expect((await req('GET', `/v1/maintenance/${id}`)).body).toMatchObject({ announce: true });

    const nightly = await req(
      'POST',
      '/v1/maintenance',
      recurring({ announce: true, announce_lead_seconds: 7200 }),
    );
    expect(nightly.body).toMatchObject({ announce: true, announce_lead_seconds: 7200, announce_from: null });
    for (const w of [id, nightly.body.id]) await req('DELETE', `/v1/maintenance/${w}`);
  });

  it.each([
    [
      'announce_from after the start',
      () => oneOff({ announce_from: iso(T0 + 2 * HOUR + 1000) }),
      'announce_from',
      'Announce the window at or before its start time (starts_at).',
    ],
    [
      'announce_from on a recurring window',
      () => recurring({ announce_from: iso(T0) }),
      'announce_from',
      /announce_lead_seconds before each run/,
    ],
    [
      'announce_lead_seconds on a one-off window',
      () => oneOff({ announce_lead_seconds: 60 }),
      'announce_lead_seconds',
      /for recurring windows/,
    ],
    [
      'a lead over 30 days',
      () => recurring({ announce_lead_seconds: 30 * 86_400 + 1 }),
      'announce_lead_seconds',
      /./,
    ],
    ['a negative lead', () => recurring({ announce_lead_seconds: -1 }), 'announce_lead_seconds', /./],
    [
      'a note over 2,000 characters',
      () => oneOff({ public_note: 'x'.repeat(2001) }),
      'public_note',
      /2000 characters/,
    ],
    ['announce not a boolean', () => oneOff({ announce: 'yes' }), 'announce', /./],
    ['announce_from not a UTC time', () => oneOff({ announce_from: 'tomorrow' }), 'announce_from', /./],
  ] as const)('refuses %s with a 400 at the field, and stores nothing', async (_, body, path, message) => {
    const before = (await req('GET', '/v1/maintenance')).body.windows;
    const res = await req('POST', '/v1/maintenance', body());
    expect(res.status, res.text).toBe(400);
    const detail = res.body.details.find((d: { path: string }) => d.path === path);
    expect(detail?.message, res.text).toMatch(
      typeof message === 'string' ? new RegExp(`^${message.replace(/[.()]/g, '\\$&')}$`) : message,
    );
    expect((await req('GET', '/v1/maintenance')).body.windows).toEqual(before);
  });

  it('takes a note of exactly 2,000 characters and announce_from equal to the start', async () => {
    const res = await req(
      'POST',
      '/v1/maintenance',
      oneOff({ announce: true, announce_from: iso(T0 + 2 * HOUR), public_note: 'y'.repeat(2000) }),
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body.public_note).toHaveLength(2000);
    await req('DELETE', `/v1/maintenance/${res.body.id}`);
  });
});

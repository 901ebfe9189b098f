import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { type Joined, join } from '../auth/team-helpers.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { enableToolsets } from '../support/toolsets.ts';
import { connectSdkClient } from './sdk-client.ts';

/**
 * who_is_on_call through the official MCP SDK client: a read-only key finds and calls it; by an
 * entity's blueprint and slug (or id), a team or a schedule, at a time on either side of a
 * handoff, each answer with the path entity → team → schedule → person, in words and data; an
 * unowned entity says so, an unknown one is a tool error, and another tenant's team is unknown.
 */

// biome-ignore lint/suspicious/noExplicitAny: tool results are inspected freely
const data = (result: CallToolResult): any => result.structuredContent;
const text = (result: CallToolResult) => (result.content[0] as { text: string }).text;

const T0 = Date.parse('2026-03-28T12:00:00.000Z');

describe.each(runtimes)('MCP who_is_on_call ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let viewer: Client;
  let ann: Joined;
  let bob: Joined;
  let teamId = '';
  let scheduleId = '';
  let shopId = '';
  const clock = createFakeClock(T0);
  const post = async (path: string, body: unknown) => {
    const res = await api.request('POST', path, { key: api.adminKey, body });
    expect([200, 201], res.text).toContain(res.status);
    return res.body;
  };
  const call = async (client: Client, args: Record<string, unknown>) =>
    (await client.callTool({ name: 'who_is_on_call', arguments: args })) as CallToolResult;

  beforeAll(async () => {
    api = await start({ clock });
    ann = await join(api, api.adminKey, { role: 'member' });
    bob = await join(api, api.adminKey, { role: 'member' });
    scheduleId = (
      await post('/v1/schedules', {
        name: 'Shop rota',
        time_zone: 'Europe/Berlin',
        layers: [
          {
            name: 'Everyone',
            members: [ann.userId, bob.userId],
            rotation: { type: 'daily', handoff: '09:00', start: '2026-03-27' },
          },
        ],
      })
    ).id;
    teamId = (await post('/v1/teams', { name: 'Shop team', members: [ann.userId], schedule_id: scheduleId }))
      .id;
    await post('/v1/blueprints', { slug: 'service', name: 'Service' });
    shopId = (await post('/v1/blueprints/service/entities', { slug: 'shop-api', name: 'Shop API' })).id;
    await post('/v1/blueprints/service/entities', { slug: 'lonely', name: 'Lonely' });
    await post(`/v1/teams/${teamId}/entities`, { entity_id: shopId });
    await enableToolsets(api, api.adminKey);
    const viewerKey = (await post('/v1/auth/keys', { label: 'viewer', is_read_only: true })).key;
    viewer = await connectSdkClient(api, viewerKey);
  });
  afterAll(async () => {
    await viewer?.close();
    await api?.close();
  });

  it('is listed read-only, and answers by entity slug with the path, on either side of the handoff', async () => {
    const tool = (await viewer.listTools()).tools.find((t) => t.name === 'who_is_on_call');
    expect(tool?.annotations?.readOnlyHint).toBe(true);

    const before = await call(viewer, { blueprint_slug: 'service', entity_slug: 'shop-api' });
    expect(before.isError).toBeFalsy();
    expect(text(before)).toContain(
      `On call for Shop API (service/shop-api) at 2026-03-28T12:00:00.000Z: team "Shop team" → schedule "Shop rota": New Member <${bob.email}> until 2026-03-29T07:00:00.000Z.`,
    );
    expect(data(before).on_call[0]).toMatchObject({
      path: { ownership: 'owned_by', team: { id: teamId }, schedule: { id: scheduleId } },
      user: { id: bob.userId },
    });
    const after = await call(viewer, { entity_id: shopId, at: '2026-03-29T08:00:00Z' });
    expect(data(after).on_call[0].user.id).toBe(ann.userId);
    expect(data(after).at).toBe('2026-03-29T08:00:00.000Z');

    const byTeam = await call(viewer, { team_id: teamId, at: '2026-03-29T08:00:00Z' });
    expect(data(byTeam).on_call[0]).toMatchObject({
      path: { team: { id: teamId } },
      user: { id: ann.userId },
    });
    const bySchedule = await call(viewer, { schedule_id: scheduleId });
    expect(data(bySchedule).on_call[0].user.id).toBe(bob.userId);
  });

  it('says an entity has no owner, and refuses an unknown entity, two subjects and another tenant’s team; with none answers every team', async () => {
    const lonely = await call(viewer, { blueprint_slug: 'service', entity_slug: 'lonely' });
    expect(lonely.isError).toBeFalsy();
    expect(data(lonely).on_call).toEqual([]);
    expect(text(lonely)).toContain(
      'Lonely (service/lonely) at 2026-03-28T12:00:00.000Z: nobody. "Lonely" has no owning team',
    );

    const unknown = await call(viewer, { blueprint_slug: 'service', entity_slug: 'nope' });
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toContain('service/nope');
    const two = await call(viewer, { team_id: teamId, schedule_id: scheduleId });
    expect(two.isError).toBe(true);
    expect(text(two)).toContain('Give at most one of entity_id, team_id and schedule_id.');
    const everyTeam = await call(viewer, {});
    expect(everyTeam.isError).toBeFalsy();
    expect(text(everyTeam)).toContain('team "Shop team" → schedule "Shop rota": New Member');
    const half = await call(viewer, { blueprint_slug: 'service' });
    expect(half.isError).toBe(true);

    const other = await api.createTenant('Other');
    await enableToolsets(api, other.key);
    const stranger = await connectSdkClient(api, other.key);
    try {
      const theirs = await call(stranger, { team_id: teamId });
      expect(theirs.isError).toBe(true);
      expect(text(theirs)).toContain('not found');
    } finally {
      await stranger.close();
    }
  });
});

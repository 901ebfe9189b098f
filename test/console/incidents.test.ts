import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  expectCount,
  expectNoConsoleErrors,
  expectText,
  SHOWN_WITHIN_MS,
  screenshot,
  seedEntity,
} from './support.ts';
import { openSignedIn, seedPushCheck, useConsole } from './use-console.ts';

/**
 * The Incidents page, an incident's page and the entity's incident history against a real local
 * runtime: push checks drive entities down (the change feed opens incidents) and back up (one
 * resolves), a state_change action answered by a local receiver shows as an action run; the page
 * lists the open incident first, a member acknowledges it and adds a note (an over-long one is
 * refused with the API's error at the field), both show in the timeline, the entity page lists
 * the history; a read-only key finds no write control.
 */

interface Incident {
  id: string;
  entity_name: string;
  state: string;
}

describe('console incidents', { timeout: 90_000 }, () => {
  let receiver: Server;
  let billing: { entityId: string; checkId: string };
  let queue: { entityId: string; checkId: string };

  /** A push check (threshold 1: one failed result takes the entity down) on a new entity of blueprint svc. */
  async function entityWithCheck(slug: string, name: string, first: boolean) {
    const entityId = first
      ? await seedEntity(rig, { slug: 'svc', name: 'Services' }, { slug, name })
      : (await rig.api<{ id: string }>('POST', '/v1/blueprints/svc/entities', { slug, name })).body.id;
    return { entityId, checkId: await seedPushCheck(rig, entityId) };
  }
  async function report(checkId: string, success: boolean) {
    const res = await rig.api('POST', `/v1/checks/${checkId}/results`, {
      success,
      latency_ms: 5,
      error_message: success ? '' : 'connection refused',
    });
    expect(res.status).toBe(201);
  }
  /** The entity's incidents once the change feed has made them `states` (newest first). */
  async function incidentsOf(entityId: string, states: string[]): Promise<Incident[]> {
    // vi.waitFor, not expect.poll: this runs in beforeAll too.
    return vi.waitFor(
      async () => {
        const res = await rig.api<{ incidents: Incident[] }>('GET', `/v1/incidents?entity_id=${entityId}`);
        expect(res.body.incidents.map((i) => i.state)).toEqual(states);
        return res.body.incidents;
      },
      { timeout: SHOWN_WITHIN_MS, interval: 100 },
    );
  }

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(204).end());
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  });
  const rig = useConsole({
    seed: async (rig) => {
      billing = await entityWithCheck('billing', 'Billing', true);
      queue = await entityWithCheck('queue', 'Queue', false);
      const search = await entityWithCheck('search', 'Search', false);
      const action = await rig.api('POST', '/v1/actions', {
        name: 'Page on-call',
        url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/page`,
        trigger_type: 'state_change',
        trigger_to_state: 'down',
        check_id: billing.checkId,
      });
      expect(action.status, JSON.stringify(action.body)).toBe(201);
      // Billing and Queue go down (open incidents); Search goes down and back up (resolved, and newer).
      for (const c of [billing, queue, search]) await report(c.checkId, true);
      await report(billing.checkId, false);
      await report(queue.checkId, false);
      await incidentsOf(billing.entityId, ['open']);
      await incidentsOf(queue.entityId, ['open']);
      await report(search.checkId, false);
      await incidentsOf(search.entityId, ['open']);
      await report(search.checkId, true);
      await incidentsOf(search.entityId, ['resolved']);
    },
  });
  afterAll(async () => {
    await new Promise((resolve) => receiver?.close(resolve));
  });

  it('lists open incidents first, then resolved ones, each linking to its entity', async () => {
    const p = await openSignedIn(rig);
    await p.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Incidents' }).click();
    await p.page.getByRole('heading', { level: 1, name: 'Incidents' }).waitFor();
    const unresolved = p.page.getByRole('table', { name: 'Unresolved incidents' });
    // Header and two rows, newest first: Queue went down after Billing.
    await expectCount(unresolved.getByRole('row'), 3);
    const row = (n: number) => unresolved.getByRole('row').nth(n);
    await expectText(row(1).getByRole('cell').nth(1), 'Queue');
    await expectText(row(2).getByRole('cell').nth(1), 'Billing');
    await expectText(row(2).getByRole('cell').nth(2), 'open');
    await expectText(row(2).getByRole('cell').nth(3), 'not yet');
    await expectText(row(2).getByRole('cell').nth(5), /^\d+ (s|min)\b.* so far$/);
    expect(await row(2).getByRole('link', { name: 'Billing', exact: true }).getAttribute('href')).toBe(
      '/entities/svc/billing',
    );

    const resolved = p.page.getByRole('table', { name: 'Resolved incidents', exact: true });
    await expectCount(resolved.getByRole('row'), 2);
    await expectText(resolved.getByRole('row').nth(1).getByRole('cell').nth(1), 'Search');
    await expectText(resolved.getByRole('row').nth(1).getByRole('cell').nth(2), 'resolved');
    await p.page.getByText(/^Mean time to resolve:/).waitFor();
    // The unresolved incidents come before the resolved ones on the page.
    const top = async (name: string) =>
      (await p.page.getByRole('table', { name, exact: true }).boundingBox())?.y ?? Number.NaN;
    expect(await top('Unresolved incidents')).toBeLessThan(await top('Resolved incidents'));
    await screenshot(p.page, 'incidents');
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('acknowledges an incident and adds a note, both in the timeline; the entity page lists its history', async () => {
    const [incident] = await incidentsOf(billing.entityId, ['open']);
    const p = await openSignedIn(rig, { path: '/incidents' });
    await p.page
      .getByRole('table', { name: 'Unresolved incidents' })
      .getByRole('link', { name: /^Incident of Billing/ })
      .click();
    await p.page.getByRole('heading', { level: 1, name: 'Incident: Billing' }).waitFor();
    expect(p.page.url()).toMatch(new RegExp(`/incidents/${incident?.id}$`));

    const timeline = p.page.getByRole('list', { name: 'Timeline, oldest first' });
    await expectText(
      timeline.locator('[data-type="transition"]').first(),
      /^up\W+to\W+down\s*by Push check for billing/,
    );
    // No channel: the alert is logged skipped, with its reason. The down action ran against the receiver.
    await expectText(timeline.locator('[data-type="alert"]').first(), /^Alert skipped: .+/);
    await expectText(
      timeline.locator('[data-type="action"]').first(),
      /^Action Page on-call ran: success \(HTTP 204\)/,
    );

    await p.page.getByRole('button', { name: 'Acknowledge' }).click();
    await expectText(timeline.locator('[data-type="acknowledgement"]'), /^Acknowledged by you/);
    await expectCount(p.page.getByRole('button', { name: 'Acknowledge' }), 0);
    await expectText(p.page.locator('.page-actions .badge'), 'acknowledged');

    // Over 4 KB: the API's 400 shows at the field and above the button; nothing is added.
    const form = p.page.getByRole('form', { name: 'Add a note' });
    await form.getByLabel(/^Note/).fill('é'.repeat(2049));
    await form.getByRole('button', { name: 'Add note' }).click();
    await expect.poll(() => form.getByLabel(/^Note/).getAttribute('aria-invalid')).toBe('true');
    await expectText(form.getByRole('alert').locator('strong'), 'The note was not added.');
    await expectCount(timeline.locator('[data-type="note"]'), 0);

    await form.getByLabel(/^Note/).fill('Restarted the billing worker.\nWatching the queue.');
    await form.getByRole('button', { name: 'Add note' }).click();
    await expectText(form.getByRole('status'), 'The note was added.');
    await expectText(
      timeline.locator('[data-type="note"]'),
      /^Note by you: Restarted the billing worker\.Watching the queue\./,
    );
    const detail = await rig.api<{ state: string; timeline: { type: string; text?: string }[] }>(
      'GET',
      `/v1/incidents/${incident?.id}`,
    );
    expect(detail.body.state).toBe('acknowledged');
    expect(detail.body.timeline.filter((e) => e.type === 'note').map((e) => e.text)).toEqual([
      'Restarted the billing worker.\nWatching the queue.',
    ]);
    await screenshot(p.page, 'incident');

    await p.page.getByRole('link', { name: 'Billing' }).first().click();
    await p.page.getByRole('heading', { level: 1, name: 'Billing' }).waitFor();
    const history = p.page.getByRole('table', { name: 'Incident history' });
    await expectCount(history.getByRole('row'), 2);
    await expectText(history.getByRole('row').nth(1).getByRole('cell').nth(1), 'acknowledged');
    expect(await history.getByRole('link', { name: /^Incident of Billing/ }).getAttribute('href')).toBe(
      `/incidents/${incident?.id}`,
    );
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('gives a read-only key the incidents to read but no acknowledge button or note form', async () => {
    const [incident] = await incidentsOf(queue.entityId, ['open']);
    const created = await rig.api<{ key: string }>('POST', '/v1/auth/keys', {
      label: 'wall',
      is_read_only: true,
    });
    expect(created.status).toBe(201);
    const p = await openSignedIn(rig, { path: '/incidents', key: created.body.key });
    await p.page
      .getByRole('table', { name: 'Unresolved incidents' })
      .getByRole('link', { name: 'Queue', exact: true })
      .waitFor();
    await p.page.goto(`/incidents/${incident?.id}`);
    await p.page
      .getByRole('list', { name: 'Timeline, oldest first' })
      .locator('[data-type="transition"]')
      .first()
      .waitFor();
    await expectText(p.page.locator('.page-actions .badge'), 'open');
    await expectCount(p.page.getByRole('button', { name: /Acknowledge|Add note/ }), 0);
    await expectCount(p.page.locator('form'), 0);
    expectNoConsoleErrors(p);
    await p.close();

    // The same incident offers a member both.
    const member = await openSignedIn(rig, { path: `/incidents/${incident?.id}` });
    await member.page.getByRole('button', { name: 'Acknowledge' }).waitFor();
    await member.page.getByRole('form', { name: 'Add a note' }).waitFor();
    expectNoConsoleErrors(member);
    await member.close();
  });
});

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { CATALOG_OPS_MANIFEST } from '../../lib/features/feature-routes.ts';
import { expectCount, expectNoConsoleErrors, expectText, SHOWN_WITHIN_MS, seedServices } from './support.ts';
import { openSignedIn, seedCheck, useConsole } from './use-console.ts';

/**
 * What the console says after a user acts (issue 25, items 7 to 9): the delivery log names each
 * event in words, a save says it was saved, and a built-in toolset's "Enable" button turns its MCP
 * tools on once, whatever is pressed after.
 */

const CATALOG_TOOLS = CATALOG_OPS_MANIFEST.tools.map((t) => t.name).sort();

/** The built-in create_check tool, whose input gained `name` (issue 25). */
function createCheckTool() {
  const tool = CATALOG_OPS_MANIFEST.tools.find((t) => t.name === 'create_check');
  if (!tool) throw new Error('catalog-ops has no create_check');
  return tool as typeof tool & { inputSchema: { properties: Record<string, unknown> } };
}

describe('console words and confirmations', { timeout: 90_000 }, () => {
  let checkId: string;

  /** The tools an MCP client of this runtime sees, through the MCP SDK's Streamable HTTP client. */
  async function mcpToolNames(): Promise<string[]> {
    const client = new Client({ name: 'words-test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${rig.url}/v1/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${rig.key}` } },
    });
    await client.connect(transport);
    try {
      return (await client.listTools()).tools.map((t) => t.name).sort();
    } finally {
      await client.close();
    }
  }

  const rig = useConsole({
    seed: async (rig) => {
      const { billing: entityId } = await seedServices(rig, 'Billing');
      checkId = await seedCheck(rig, {
        entity_id: entityId,
        check_type: 'push',
        interval_seconds: 60,
        failure_threshold: 1,
      });
    },
  });

  it('names the event of each delivery in the delivery log', async () => {
    // Down, then recovered: with no channel each change is logged as a skip naming its event.
    const report = (success: boolean) =>
      rig.api('POST', `/v1/checks/${checkId}/results`, { success, latency_ms: 5 });
    expect((await report(false)).status).toBe(201);
    await expect
      .poll(async () => (await rig.api<{ logs: unknown[] }>('GET', '/v1/notify/logs')).body.logs.length, {
        timeout: SHOWN_WITHIN_MS,
      })
      .toBe(1);
    expect((await report(true)).status).toBe(201);
    await expect
      .poll(
        async () =>
          (await rig.api<{ logs: { event: string }[] }>('GET', '/v1/notify/logs')).body.logs.map(
            (l) => l.event,
          ),
        { timeout: SHOWN_WITHIN_MS },
      )
      .toEqual(['recovery', 'down']);

    const p = await openSignedIn(rig, { path: '/notifications' });
    const table = p.page.getByRole('table', { name: 'Deliveries' });
    await expectCount(table.getByRole('row'), 3);
    await expectText(table.getByRole('row').nth(1).getByRole('cell').nth(1), 'Recovery');
    await expectText(table.getByRole('row').nth(2).getByRole('cell').nth(1), 'Down');
    expect(await table.getByRole('columnheader').nth(1).textContent()).toBe('Event');
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('confirms a saved notification policy, and again after a second save', async () => {
    const p = await openSignedIn(rig, { path: `/checks/${checkId}` });
    const form = p.page.getByRole('form', { name: 'Notification policy' });
    await form.getByLabel('Cooldown (seconds)').fill('120');
    await form.getByRole('button', { name: 'Save policy' }).click();
    await expectText(form.getByRole('status'), 'The policy was saved.');
    await form.getByLabel('Cooldown (seconds)').fill('90');
    // Issue 35: the flap settings are part of the same form.
    await form.getByLabel('Flapping after (changes)').fill('4');
    await form.getByLabel('Flapping window (seconds)').fill('600');
    await form.getByRole('button', { name: 'Save policy' }).click();
    await expectText(form.getByRole('status'), 'The policy was saved.');
    const stored = await rig.api<{
      cooldown_seconds: number;
      flap_changes: number;
      flap_window_seconds: number;
    }>('GET', `/v1/checks/${checkId}/policy`);
    expect(stored.body).toMatchObject({ cooldown_seconds: 90, flap_changes: 4, flap_window_seconds: 600 });
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('sets the flapping settle time in the policy form, with its help, and refuses one out of range at its field', async () => {
    // Issue 75: flap_settle_seconds (default 300) was in the API but not in the form.
    const p = await openSignedIn(rig, { path: `/checks/${checkId}` });
    const form = p.page.getByRole('form', { name: 'Notification policy' });
    const settle = form.getByLabel('Flapping settle time (seconds)');
    await expect.poll(() => settle.inputValue()).toBe('300');
    await expectText(
      form.getByText('How long a flapping check must stay in one state before that state is told', {
        exact: false,
      }),
      'How long a flapping check must stay in one state before that state is told (60 to 86400; at most the window)',
    );
    await settle.fill('30');
    await form.getByRole('button', { name: 'Save policy' }).click();
    await expect.poll(() => settle.getAttribute('aria-invalid')).toBe('true');
    await expectText(
      form.getByText('Enter a settle time from 60', { exact: false }),
      'Enter a settle time from 60 to 86,400 seconds (a minute to a day).',
    );
    await settle.fill('120');
    await form.getByRole('button', { name: 'Save policy' }).click();
    await expectText(form.getByRole('status'), 'The policy was saved.');
    const stored = await rig.api<{ flap_settle_seconds: number }>('GET', `/v1/checks/${checkId}/policy`);
    expect(stored.body.flap_settle_seconds).toBe(120);
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('confirms saved blueprint details and a saved action', async () => {
    const action = await rig.api<{ id: string }>('POST', '/v1/actions', {
      name: 'Restart',
      url: 'https://127.0.0.1:9/restart',
    });
    expect(action.status).toBe(201);
    const p = await openSignedIn(rig, { path: '/catalog/blueprints/svc' });
    const details = p.page.getByRole('form', { name: 'Blueprint details' });
    await details.getByLabel(/^Name/).fill('Services (prod)');
    await details.getByRole('button', { name: 'Save details' }).click();
    await expectText(details.getByRole('status'), 'Saved.');

    await p.page.goto(`/actions/${action.body.id}`);
    await p.page.getByRole('button', { name: 'Edit', exact: true }).click();
    await p.page.getByRole('form', { name: 'Save action' }).getByLabel(/^Name/).fill('Restart billing');
    await p.page.getByRole('button', { name: 'Save action' }).click();
    await expectText(p.page.getByRole('status').filter({ hasText: 'saved' }), 'The action was saved.');
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('shows catalog-ops on for a new account and turns a toolset on, or back on, with one button', async () => {
    expect(await mcpToolNames()).toEqual([...CATALOG_TOOLS, 'find_tools'].sort());
    const p = await openSignedIn(rig, { path: '/skills' });
    const catalog = p.page.getByRole('listitem', { name: 'catalog-ops' });
    await expectText(catalog, /On: MCP clients see its tools/);
    await expectCount(catalog.getByRole('button'), 0);

    // Disabled elsewhere: the page offers the button again, and pressing it turns the same skill back on.
    const off = await rig.api('PUT', '/v1/skills/catalog-ops', { enabled: false });
    expect(off.status).toBe(200);
    expect(await mcpToolNames()).toEqual(['find_tools']);
    await p.page.reload();
    await catalog.getByRole('button', { name: 'Enable catalog-ops' }).click();
    await expectText(catalog, /On: MCP clients see its tools/);
    expect(await mcpToolNames()).toEqual([...CATALOG_TOOLS, 'find_tools'].sort());

    // Another toolset: one press registers it.
    const checks = p.page.getByRole('listitem', { name: 'check-ops' });
    await checks.getByRole('button', { name: 'Enable check-ops' }).click();
    await expectText(checks, /On: MCP clients see its tools/);
    expect(await mcpToolNames()).toEqual(
      expect.arrayContaining(['run_check', 'update_check', 'delete_check']),
    );
    const skills = await rig.api<{ slug: string }[]>('GET', '/v1/skills');
    expect(skills.body.map((s) => s.slug)).toEqual(['catalog-ops', 'check-ops']);

    // Registered by an earlier version (create_check without `name`): the page offers the update,
    // which sends this version's manifest, so MCP clients may name the checks they create.
    const { name: _name, ...olderProperties } = createCheckTool().inputSchema.properties;
    const older = CATALOG_OPS_MANIFEST.tools.map((t) =>
      t.name === 'create_check'
        ? { ...t, inputSchema: { ...t.inputSchema, properties: olderProperties } }
        : t,
    );
    const put = await rig.api('PUT', '/v1/skills/catalog-ops', { tools: older, version: '1.0.0' });
    expect(put.status).toBe(200);
    await p.page.reload();
    await expectText(catalog, /registered it: its tools are out of date/);
    await catalog.getByRole('button', { name: 'Update catalog-ops' }).click();
    await expectText(catalog, /On: MCP clients see its tools/);
    const updated = await rig.api<{ tools: { name: string; inputSchema: { properties: object } }[] }>(
      'GET',
      '/v1/skills/catalog-ops',
    );
    expect(
      Object.keys(updated.body.tools.find((t) => t.name === 'create_check')?.inputSchema.properties ?? {}),
    ).toContain('name');
    expectNoConsoleErrors(p);
    await p.close();
  });
});

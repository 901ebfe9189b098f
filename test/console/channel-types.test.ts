import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MatrixReceiver, startMatrixReceiver } from '../support/receivers/matrix.ts';
import { type MattermostReceiver, startMattermostReceiver } from '../support/receivers/mattermost.ts';
import { createTlsFixtures } from '../support/tls-fixtures.ts';
import { type ConsolePage, expectNoConsoleErrors, expectText, screenshot } from './support.ts';
import { openSignedIn, useConsole } from './use-console.ts';

/**
 * The Channels page's form for the channel types the web registry declares: the type select
 * offers every registered type by its label (read from the registry, so a new type is covered);
 * a Matrix and a Mattermost channel made against loopback receivers, listed with their target;
 * Matrix's access token is write-only (the edit shows it empty with the "kept" hint, and an edit
 * that does not retype it keeps it: the test still reaches the homeserver with the right Bearer
 * token); an API refusal (a room alias) shows at its field as a sentence; axe stays clean.
 */

const tmp = mkdtempSync(join(tmpdir(), 'vigil-console-channel-types-'));
const tls = createTlsFixtures();
const caFile = join(tmp, 'test-ca.pem');
writeFileSync(caFile, tls.caCert);
const TOKEN = 'syt_matrix_token_1';
const ROOM = '!ops:localhost';

/** The console's registry of channel forms, as the page uses it (its own imports are Vite's, so loaded by path). */
const REGISTRY = '../../web/src/notify/channel-forms/registry.ts';
const { CHANNEL_FORMS } = (await import(REGISTRY)) as {
  CHANNEL_FORMS: Record<string, { label: string; fields: { label: string }[] }>;
};
const formOf = (type: string) => {
  const form = CHANNEL_FORMS[type];
  if (!form) throw new Error(`no ${type} form in the registry`);
  return form;
};

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe's WCAG 2 A/AA violations (ids) on the page as it is now, as accessibility.test.ts audits pages. */
async function axeViolations(p: ConsolePage): Promise<string[]> {
  await p.page.evaluate(`${AXE};0`);
  return p.page.evaluate<string[]>(
    "axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } }).then((r) => r.violations.map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))",
  );
}

describe('console channel type forms', { timeout: 90_000 }, () => {
  let matrix: MatrixReceiver;
  let mattermost: MattermostReceiver;
  beforeAll(async () => {
    matrix = await startMatrixReceiver(tls.valid, TOKEN, ROOM);
    mattermost = await startMattermostReceiver(tls.valid, 'hookkey123', ['town-square']);
  });
  const rig = useConsole({ env: { NODE_EXTRA_CA_CERTS: caFile } });
  afterAll(async () => {
    await matrix?.close();
    await mattermost?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('offers every registered type by its label, and shows an API refusal at its field (axe-clean)', async () => {
    const p = await openSignedIn(rig, { path: '/channels' });
    const form = p.page.getByRole('form', { name: 'New shared channel' });
    const select = form.getByLabel(/^Channel type/);
    await select.waitFor();
    const offered = await select.locator('option').allTextContents();
    expect(offered).toEqual(Object.values(CHANNEL_FORMS).map((f) => f.label));
    expect(Object.keys(CHANNEL_FORMS)).toEqual(expect.arrayContaining(['matrix', 'mattermost', 'teams']));

    // Each type's form is axe-clean as the select switches to it.
    for (const [type, channelForm] of Object.entries(CHANNEL_FORMS)) {
      await select.selectOption({ label: channelForm.label });
      const first = channelForm.fields[0];
      if (first) await form.getByLabel(new RegExp(`^${first.label}`)).waitFor();
      expect({ type, violations: await axeViolations(p) }).toEqual({ type, violations: [] });
    }

    // A room alias: refused by the API, shown at the Room ID field as a sentence.
    await select.selectOption({ label: formOf('matrix').label });
    await form.getByLabel(/^Name/).fill('Alias room');
    await form.getByLabel(/^Homeserver URL/).fill(matrix.origin);
    const room = form.getByLabel(/^Room ID/);
    await room.fill('#ops:localhost');
    await form.getByLabel(/^Access token/).fill(TOKEN);
    await form.getByRole('button', { name: 'Create channel' }).click();
    await expect.poll(() => room.getAttribute('aria-invalid')).toBe('true');
    const error = form.locator(`#${await room.getAttribute('id')}-error`);
    await expectText(error, /alias/);
    expect((await error.textContent())?.trim()).toMatch(/^[A-Z].*\.$/);
    expect(await axeViolations(p)).toEqual([]);
    expect(matrix.received).toHaveLength(0);
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('creates Matrix and Mattermost channels, lists their targets, and keeps the write-only token on an edit', async () => {
    const p = await openSignedIn(rig, { path: '/channels' });
    const form = p.page.getByRole('form', { name: 'New shared channel' });
    const table = p.page.getByRole('table', { name: 'Shared channels' });

    await form.getByLabel(/^Channel type/).selectOption({ label: formOf('matrix').label });
    await form.getByLabel(/^Name/).fill('Ops room');
    await form.getByLabel(/^Homeserver URL/).fill(matrix.origin);
    await form.getByLabel(/^Room ID/).fill(ROOM);
    await form.getByLabel(/^Access token/).fill(TOKEN);
    await form.getByRole('button', { name: 'Create channel' }).click();
    await p.page.getByText('The shared channel Ops room was created.').waitFor();
    const matrixRow = table.getByRole('row').filter({ hasText: 'Ops room' });
    await matrixRow.getByText(ROOM).waitFor();
    expect(await matrixRow.textContent()).not.toContain(TOKEN);

    await form.getByLabel(/^Channel type/).selectOption({ label: formOf('mattermost').label });
    await form.getByLabel(/^Name/).fill('Town square');
    await form.getByLabel(/^Webhook URL/).fill(mattermost.url);
    await form
      .getByLabel(/^Channel/)
      .last()
      .fill('town-square');
    await form.getByRole('button', { name: 'Create channel' }).click();
    await p.page.getByText('The shared channel Town square was created.').waitFor();
    await table.getByRole('row').filter({ hasText: 'Town square' }).getByText(mattermost.url).waitFor();
    await p.page.getByRole('button', { name: 'Send test to Town square' }).click();
    await p.page.getByText(/^Test result: Test, mattermost: sent \(HTTP 200\) after 1 attempt\.$/).waitFor();
    expect(mattermost.received.map((r) => r.answer.status)).toEqual([200]);

    // The token is never read back: the edit shows the field empty, with the "kept" hint.
    await p.page.getByRole('button', { name: 'Edit Ops room' }).click();
    const edit = p.page.getByRole('form', { name: 'Edit Ops room' });
    await expect.poll(() => edit.getByLabel(/^Room ID/).inputValue()).toBe(ROOM);
    const token = edit.getByLabel(/^Access token/);
    expect(await token.inputValue()).toBe('');
    await expectText(
      edit.locator(`#${await token.getAttribute('id')}-hint`),
      'Set, never shown: leave it empty to keep it while the destination stays; a new destination needs it again.',
    );
    expect(await axeViolations(p)).toEqual([]);
    await screenshot(p.page, 'channel-matrix-edit');
    await edit.getByLabel(/^Name/).fill('Ops room 2');
    await edit.getByRole('button', { name: 'Save Ops room' }).click();
    await p.page.getByText('The shared channel Ops room 2 was saved.').waitFor();

    // The kept token still reaches the homeserver.
    await p.page.getByRole('button', { name: 'Send test to Ops room 2' }).click();
    await p.page.getByText(/^Test result: Test, matrix: sent \(HTTP 200\) after 1 attempt\.$/).waitFor();
    expect(matrix.received.map((r) => r.request.headers.authorization)).toEqual([`Bearer ${TOKEN}`]);
    expect(matrix.events).toHaveLength(1);
    const stored = await rig.api<{ channels: { name: string; config: Record<string, unknown> }[] }>(
      'GET',
      '/v1/notify/channels',
    );
    expect(JSON.stringify(stored.body)).not.toContain(TOKEN);
    expectNoConsoleErrors(p);
    await p.close();
  });
});

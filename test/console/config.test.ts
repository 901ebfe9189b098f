import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  audit,
  expectCount,
  expectNoConsoleErrors,
  expectText,
  SHOWN_WITHIN_MS,
  screenshot,
} from './support.ts';
import { inviteMember, openSignedIn, useConsole } from './use-console.ts';

/**
 * The Configuration page against a real local runtime: Export downloads the tenant's document;
 * Import of a Vigil document shows the plan grouped by create, update and delete, with each
 * update's fields, and an admin applies it and reads each object's outcome; a member sees the
 * plan but no Apply; a Gatus file is converted before it is planned and applied; no axe
 * violation.
 */

const document = (entityName: string) => `apiVersion: vigil/v1
kind: Config
blueprints:
  - slug: service
    name: Service
entities:
  - blueprint: service
    slug: api
    name: ${entityName}
`;

const GATUS = `endpoints:
  - name: website
    url: https://example.com/
    interval: 5m
    conditions:
      - "[STATUS] == 200"
`;

const file = (name: string, text: string) => ({ name, mimeType: 'text/plain', buffer: Buffer.from(text) });

describe('console configuration export and import', { timeout: 120_000 }, () => {
  let memberKey = '';

  const rig = useConsole({
    seed: async (rig) => {
      memberKey = await inviteMember(rig);
    },
  });

  it('imports a document: the plan, Apply, each object applied; then exports it', async () => {
    const p = await openSignedIn(rig);
    await p.page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Configuration' })
      .click();
    await p.page.getByRole('heading', { level: 1, name: 'Configuration' }).waitFor();

    await p.page.getByLabel('Configuration file').setInputFiles(file('vigil.yaml', document('Checkout API')));
    await expectText(p.page.getByText(/^Read /), 'Read a Vigil document.');
    const creates = p.page.getByRole('region', { name: 'To create (2)' });
    await creates.waitFor({ timeout: SHOWN_WITHIN_MS });
    await expectText(creates.getByRole('listitem').nth(1), 'entity service/api');
    expect(await audit(p.page)).toEqual([]);

    await p.page.getByRole('button', { name: 'Apply 2 changes' }).click();
    const applied = p.page.getByRole('region', { name: 'Applied' });
    await expectText(applied.getByRole('status'), '2 created, 0 updated, 0 deleted, 0 failed.');
    await expectText(applied.getByRole('listitem').nth(1), 'Done: create entity service/api');
    expect((await rig.api('GET', '/v1/blueprints/service/entities/api')).status).toBe(200);

    const download = p.page.waitForEvent('download', { timeout: SHOWN_WITHIN_MS });
    await p.page.getByRole('button', { name: 'Download vigil.yaml' }).click();
    const saved = await download;
    expect(saved.suggestedFilename()).toBe('vigil.yaml');
    // The tier's Chromium is another process (a remote browser): the download is copied here.
    const copy = join(rig.dataDir, 'vigil.yaml');
    await saved.saveAs(copy);
    const exported = readFileSync(copy, 'utf8');
    expect(exported).toContain('apiVersion: vigil/v1');
    expect(exported).toContain('slug: api');
    expectNoConsoleErrors(p);
    await p.close();
  });

  it("shows a member the plan's field changes, without Apply", async () => {
    const p = await openSignedIn(rig, { path: '/config', key: memberKey });
    await p.page.getByLabel('Configuration file').setInputFiles(file('vigil.yaml', document('Shop')));
    const updates = p.page.getByRole('region', { name: 'To update (1)' });
    await updates.waitFor({ timeout: SHOWN_WITHIN_MS });
    await expectText(updates.getByRole('listitem').nth(1), 'name: "Checkout API" → "Shop"');
    await p.page.getByText('Applying a configuration is for admins').waitFor();
    await expectCount(p.page.getByRole('button', { name: /^Apply/ }), 0);
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('converts a Gatus file before planning it, and applies it', async () => {
    const p = await openSignedIn(rig, { path: '/config' });
    await p.page.getByLabel('Configuration file').setInputFiles(file('config.yaml', GATUS));
    await expectText(p.page.getByText(/^Read /), 'Read a Gatus configuration.');
    // The blueprint gatus, the endpoint's entity and its check.
    const creates = p.page.getByRole('region', { name: 'To create (3)' });
    await creates.waitFor({ timeout: SHOWN_WITHIN_MS });
    await expectText(creates.getByRole('listitem').nth(2), 'check gatus/website:website');

    await p.page.getByRole('button', { name: 'Apply 3 changes' }).click();
    const applied = p.page.getByRole('region', { name: 'Applied' });
    await expectText(applied.getByRole('status'), '3 created, 0 updated, 0 deleted, 0 failed.');
    expect((await rig.api('GET', '/v1/blueprints/gatus/entities/website')).status).toBe(200);
    expectNoConsoleErrors(p);
    await p.close();
  });

  for (const width of [1280, 390]) {
    it(`has no axe violations at ${width} px`, async () => {
      const p = await openSignedIn(rig, { path: '/config', width });
      await p.page.getByRole('button', { name: 'Download vigil.yaml' }).waitFor();
      if (width === 1280) await screenshot(p.page, 'config');
      expect(await audit(p.page)).toEqual([]);
      expectNoConsoleErrors(p);
      await p.close();
    });
  }
});

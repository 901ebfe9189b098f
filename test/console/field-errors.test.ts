import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  audit,
  expectCount,
  expectNoConsoleErrors,
  expectText,
  SHOWN_WITHIN_MS,
  screenshot,
  seedEntity,
} from './support.ts';
import { openSignedIn, useConsole } from './use-console.ts';

/**
 * Words, not codes (issue 37 item 6), in Chromium against a real local runtime: a refused field
 * says its sentence once, at the field, and the form's note only says to fix the marked field (no
 * VALIDATION_ERROR, no field name); an empty slug asks for one; slugs follow the name until edited;
 * the status board of an empty account offers a first step and no pager. axe-clean throughout.
 */

/** The error shown at the field labelled `label` in `scope`. */
const errorAt = (scope: Locator, label: string | RegExp) =>
  scope
    .locator('.field', { has: scope.page().getByLabel(label, { exact: typeof label === 'string' }) })
    .locator('.field-error');

/** How many times `text` is on the page (the sentence must be said once). */
const timesOnPage = async (page: Page, text: string) =>
  ((await page.locator('main').textContent()) ?? '').split(text).length - 1;

async function expectNoCodes(page: Page) {
  const text = (await page.locator('main').textContent()) ?? '';
  expect(text).not.toMatch(/VALIDATION_ERROR|CONFLICT|\(\w+_\w+\)|Too small|Invalid input|expected number/);
}

describe('console words: errors at their field, slugs from names, first steps', { timeout: 90_000 }, () => {
  const rig = useConsole();

  it('gives an empty account a first step on the status board, and no pager', async () => {
    const p = await openSignedIn(rig, { path: '/status' });
    await p.page.getByText('No entities yet.').waitFor({ timeout: SHOWN_WITHIN_MS });
    expect(await p.page.getByRole('link', { name: 'catalog' }).first().getAttribute('href')).toBe('/catalog');
    await expectCount(p.page.getByRole('button', { name: 'Load more entities' }), 0);
    expect(await audit(p.page)).toEqual([]);
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('derives a blueprint slug and an entity slug from the name until the slug is edited', async () => {
    const p = await openSignedIn(rig, { path: '/catalog' });
    const blueprint = p.page.getByRole('form', { name: 'New blueprint' });
    await blueprint.getByLabel(/^Name/).fill('Payment Services');
    await expect.poll(() => blueprint.getByLabel(/^Slug/).inputValue()).toBe('payment-services');
    await blueprint.getByRole('button', { name: 'Create blueprint' }).click();
    await expect
      .poll(async () => (await rig.api('GET', '/v1/blueprints/payment-services')).status, {
        timeout: SHOWN_WITHIN_MS,
      })
      .toBe(200);

    await p.page.goto('/catalog?blueprint=payment-services');
    const entity = p.page.getByRole('form', { name: 'New Payment Services entity' });
    const name = entity.getByLabel(/^Name/);
    const slug = entity.getByLabel(/^Slug/);
    await name.fill('Zürich Café — EU (primary)');
    await expect.poll(() => slug.inputValue()).toBe('zurich-cafe-eu-primary');

    // The user empties the slug: it stops following the name, and the API asks for one, once.
    await slug.fill('');
    await name.fill('Zürich Café');
    expect(await slug.inputValue()).toBe('');
    await entity.getByRole('button', { name: 'Create entity' }).click();
    await expectText(errorAt(entity, /^Slug/), 'Enter a slug.');
    await expect.poll(() => slug.getAttribute('aria-invalid')).toBe('true');
    await expectText(entity.getByRole('alert'), 'The entity was not created. Fix the marked field.');
    expect(await timesOnPage(p.page, 'Enter a slug.')).toBe(1);
    await expectNoCodes(p.page);
    expect(await audit(p.page)).toEqual([]);
    await screenshot(p.page, 'entity-form-error');

    // A badly written slug says what a slug may hold, at the field only.
    await slug.fill('Zürich Café');
    await entity.getByRole('button', { name: 'Create entity' }).click();
    const rule =
      'Use lower-case letters (a-z), digits and hyphens, starting with a letter or a digit, at most 63 characters.';
    await expectText(errorAt(entity, /^Slug/), rule);
    expect(await timesOnPage(p.page, rule)).toBe(1);
    await expectNoCodes(p.page);

    await slug.fill('zurich');
    await entity.getByRole('button', { name: 'Create entity' }).click();
    await p.page
      .getByRole('link', { name: 'Zürich Café', exact: true })
      .waitFor({ timeout: SHOWN_WITHIN_MS });
    // The form is new again (emptied once saved): the slug follows the next name.
    await expect.poll(() => name.inputValue(), { timeout: SHOWN_WITHIN_MS }).toBe('');
    await name.fill('Oslo');
    await expect.poll(() => slug.inputValue()).toBe('oslo');

    // Nothing is down: the board says so, and offers no pager over the empty "down" page.
    await p.page.goto('/status');
    await p.page.getByText('Nothing is down or degraded.').waitFor({ timeout: SHOWN_WITHIN_MS });
    await expectCount(p.page.getByRole('button', { name: 'Load more entities' }), 0);
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('says a number out of bounds at the check form field, once', async () => {
    await seedEntity(rig, { slug: 'svc', name: 'Services' }, { slug: 'checkout', name: 'Checkout API' });
    const p = await openSignedIn(rig, { path: '/checks/new' });
    await p.page.getByLabel(/^Blueprint/).selectOption({ label: 'Services' });
    await p.page.getByLabel(/^Entity/).selectOption({ label: 'Checkout API (checkout)' });
    await p.page.getByLabel(/^Check type/).selectOption('http');
    await p.page.getByLabel('Target URL').fill('https://example.com/healthz');
    await p.page.getByLabel(/^Interval/).fill('0');
    await p.page.getByRole('button', { name: 'Create check' }).click();
    const form = p.page.getByRole('form');
    await expectText(errorAt(form, /^Interval/), 'Enter 1 or more.');
    await expect.poll(() => p.page.getByLabel(/^Interval/).getAttribute('aria-invalid')).toBe('true');
    await expectText(form.getByRole('alert'), 'The check was not created. Fix the marked field.');
    expect(await timesOnPage(p.page, 'Enter 1 or more.')).toBe(1);
    await expectNoCodes(p.page);
    expect(await audit(p.page)).toEqual([]);
    await screenshot(p.page, 'check-form-error');
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('derives a status page slug from its title until the slug is edited', async () => {
    const p = await openSignedIn(rig, { path: '/status-pages' });
    const form = p.page.getByRole('form', { name: 'New status page' });
    await form.getByLabel(/^Title/).fill('Acme Status');
    await expect.poll(() => form.getByLabel(/^Slug/).inputValue()).toBe('acme-status');
    await form.getByLabel(/^Slug/).fill('acme');
    await form.getByLabel(/^Title/).fill('Acme status page');
    expect(await form.getByLabel(/^Slug/).inputValue()).toBe('acme');
    expect(await audit(p.page)).toEqual([]);
    expectNoConsoleErrors(p);
    await p.close();
  });
});

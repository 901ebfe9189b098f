import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoConsoleErrors, screenshot } from './support.ts';
import { openSignedIn, useConsole } from './use-console.ts';

/**
 * The main navigation grouped by job (issue 76 point 5): each group and its pages, walked at
 * 1,280 px (a side column, every link in sight) and at 390 px (behind a Menu button). Each link
 * opens its page and is then the one marked current.
 */
const GROUPS: [group: string, links: [label: string, path: string][]][] = [
  [
    'Now',
    [
      ['Status', '/status'],
      ['Incidents', '/incidents'],
      ['On-call', '/on-call'],
    ],
  ],
  [
    'Catalog',
    [
      ['Entities', '/catalog'],
      ['Graph', '/catalog/graph'],
      ['Checks', '/checks'],
      ['Locations', '/locations'],
    ],
  ],
  [
    'Alerting',
    [
      ['Channels & routes', '/channels'],
      ['Integrations', '/integrations'],
      ['Maintenance', '/maintenance'],
    ],
  ],
  ['Communication', [['Status pages', '/status-pages']]],
  [
    'Automation',
    [
      ['Actions', '/actions'],
      ['Skills & MCP', '/skills'],
    ],
  ],
  [
    'Account',
    [
      ['Settings', '/settings'],
      ['Configuration', '/config'],
      ['Audit', '/audit'],
    ],
  ],
];

const main = (page: Page) => page.getByRole('navigation', { name: 'Main' });

/** The links of the navigation marked current, seen or folded away. */
const current = (page: Page) => main(page).locator('a[aria-current="page"]').allTextContents();

/** Each group's links as the navigation lists them (the list labelled by the group's name). */
async function listed(page: Page): Promise<[string, string[]][]> {
  const out: [string, string[]][] = [];
  for (const [group] of GROUPS) {
    const links = main(page).getByRole('list', { name: group, exact: true }).getByRole('link');
    out.push([group, await links.allTextContents()]);
  }
  return out;
}

/** Clicks the link and waits for its page: the address, a heading, and the link marked current (and no other). */
async function follow(page: Page, label: string, path: string): Promise<void> {
  await main(page).getByRole('link', { name: label, exact: true }).click();
  await page.waitForURL((url) => url.pathname === path);
  await page.getByRole('heading', { level: 1 }).waitFor();
  // Read without a role: on a phone the menu has folded away by now.
  await expect.poll(() => current(page)).toEqual([label]);
}

describe('console navigation', { timeout: 90_000 }, () => {
  const rig = useConsole();
  const expected = GROUPS.map(([group, links]) => [group, links.map(([label]) => label)]);

  it('shows every group at 1,280 px and each link opens its page', async () => {
    const p = await openSignedIn(rig, { path: '/status' });
    const { page } = p;
    await expect(page.getByRole('button', { name: 'Menu' }).isVisible()).resolves.toBe(false);
    expect(await listed(page)).toEqual(expected);
    for (const [, links] of GROUPS) for (const [label, path] of links) await follow(page, label, path);
    // The delivery log is the other tab of channels and routes: its item stays current there.
    await follow(page, 'Channels & routes', '/channels');
    await page
      .getByRole('navigation', { name: 'Alerting' })
      .getByRole('link', { name: 'Delivery log' })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Notifications' }).waitFor();
    await expect.poll(() => current(page)).toEqual(['Channels & routes']);
    // The graph is under the catalog's address, yet only its own item is current there.
    await page.goto('/catalog/graph');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await expect.poll(() => current(page)).toEqual(['Graph']);
    await page.goto('/status');
    await page.getByRole('heading', { level: 1, name: 'Status' }).waitFor();
    await screenshot(page, 'navigation');
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('folds the groups behind a Menu button at 390 px, without scrolling sideways', async () => {
    const p = await openSignedIn(rig, { path: '/status', width: 390 });
    const { page } = p;
    const menu = page.getByRole('button', { name: 'Menu' });
    await page.getByRole('heading', { level: 1, name: 'Status' }).waitFor();
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await main(page).getByRole('link').count()).toBe(0);
    const overflow = () => page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect(await overflow()).toBeLessThanOrEqual(0);
    for (const [, links] of GROUPS)
      for (const [label, path] of links) {
        await menu.click();
        expect(await menu.getAttribute('aria-expanded')).toBe('true');
        expect(await listed(page)).toEqual(expected);
        await follow(page, label, path);
        // Opening a page folds the menu again.
        await expect.poll(() => menu.getAttribute('aria-expanded')).toBe('false');
      }
    await page.goto('/status');
    await page.getByRole('heading', { level: 1, name: 'Status' }).waitFor();
    await menu.click();
    await main(page).getByRole('link', { name: 'Status pages' }).waitFor();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await screenshot(page, 'navigation-mobile');
    expectNoConsoleErrors(p);
    await p.close();
  });
});

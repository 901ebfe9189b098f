import { describe, expect, it } from 'vitest';
import { pagePathOrRoot } from '../../lib/status-pages/access/sso-links.ts';
import { pageDomainAfter } from '../../lib/status-pages/domains/domain-rules.ts';
import type { Table } from '../../lib/store/table.ts';

/**
 * The pure rules of an SSO page's hand-off to its custom domain (docs/status-pages.md "SSO pages on
 * a custom domain"): where the reader may land on the domain, and when an SSO page may take one.
 */

describe('the hand-off’s landing path', () => {
  it.each([
    ['/', '/'],
    ['/history', '/history'],
    ['/history/2026-08?before=2026-08-01T00:00:00.000Z', '/history/2026-08?before=2026-08-01T00:00:00.000Z'],
    ['/feed.rss', '/feed.rss'],
  ])('keeps the path %s', (to, kept) => {
    expect(pagePathOrRoot(to)).toBe(kept);
  });

  it.each([
    undefined,
    '',
    'history',
    'https://evil.test/x',
    'HTTPS://evil.test',
    '//evil.test/x',
    '/\\evil.test',
    '/\t/evil.test',
    '/ evil',
    'javascript:alert(1)',
    'data:text/html,x',
    `/${'a'.repeat(500)}`,
  ])('lands %j on /', (to) => {
    expect(pagePathOrRoot(to)).toBe('/');
  });
});

describe('a custom domain on an SSO page', () => {
  // The SSO rule is decided before any read: a table that fails every call proves it.
  const table = new Proxy({} as Table, {
    get: () => () => Promise.reject(new Error('no read expected')),
  });
  const rules = (publicOrigin: string | undefined) => ({
    allowed: new Set(['status.acme.test']),
    own: new Set(['vigil.acme.test']),
    publicOrigin,
  });
  const page = { tenant_id: 'tnt_1', slug: 'inside', visibility: 'sso' as const };

  it('is refused where Vigil’s own address is unknown (no VIGIL_PUBLIC_URL), on `domain`', async () => {
    const refused = pageDomainAfter(table, rules(undefined), page, 'status.acme.test', null);
    await expect(refused).rejects.toMatchObject({
      status: 400,
      details: [{ path: 'domain', message: expect.stringContaining('VIGIL_PUBLIC_URL') }],
    });
    // Kept or cleared, the rule holds the same: an SSO page keeps no domain it cannot serve.
    await expect(
      pageDomainAfter(table, rules(undefined), page, undefined, 'status.acme.test'),
    ).rejects.toMatchObject({
      status: 400,
    });
    await expect(
      pageDomainAfter(table, rules(undefined), page, null, 'status.acme.test'),
    ).resolves.toBeNull();
  });

  it('is kept as it is where Vigil’s address is known', async () => {
    await expect(
      pageDomainAfter(table, rules('https://vigil.acme.test'), page, undefined, 'status.acme.test'),
    ).resolves.toBe('status.acme.test');
  });
});

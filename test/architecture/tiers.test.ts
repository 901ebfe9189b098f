import { describe, expect, it } from 'vitest';
import { LONG_FILES } from '../support/long-first-sequencer.ts';
import { testFilesByTier, tierOf } from '../tiers.ts';

// The tiers (CONTRIBUTING.md "Tiers") follow from what a file imports: these files stand for each rule.
describe('test tiers', () => {
  it.each([
    ['test/domain/check-state.test.ts', 'unit'],
    ['test/notify/alert-truth.test.ts', 'api'],
    ['test/checks/run-now.test.ts', 'api'],
    ['test/store/dynamodb-table.test.ts', 'api'],
    ['test/cloud/mcp-flow.test.ts', 'cloud'],
    ['test/security/tenant-isolation.test.ts', 'cloud'],
    ['test/notify/email-recipients.test.ts', 'cloud'],
    ['test/support/fauxqs-shapes.test.ts', 'cloud'],
    ['test/console/journey.test.ts', 'browser'],
    ['test/local/crash-rounds.test.ts', 'system'],
    ['test/cloud/store-outage.test.ts', 'system'],
    ['test/deploy/container.test.ts', 'system'],
  ])('puts %s in the %s tier', (path, tier) => {
    expect(tierOf(path)).toBe(tier);
  });

  it('puts every test file in exactly one tier', () => {
    const byTier = testFilesByTier();
    const all = Object.values(byTier).flat();

    expect(new Set(all).size).toBe(all.length);
    expect(all).toContain('test/architecture/tiers.test.ts');
    for (const [tier, files] of Object.entries(byTier)) expect(files.length, tier).toBeGreaterThan(0);
  });

  it('starts only test files first (a renamed or removed long file leaves the list)', () => {
    const all = new Set(Object.values(testFilesByTier()).flat());
    expect(Object.keys(LONG_FILES).filter((path) => !all.has(path))).toEqual([]);
  });
});

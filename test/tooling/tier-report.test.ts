import { describe, expect, it } from 'vitest';
import { TIER_BUDGETS, tierReport } from '../support/tier-report.ts';

describe('tier report', () => {
  it('puts each tier that ran beside its budget and says which is over', () => {
    const lines = tierReport([
      { tier: 'unit', file: 'test/a.test.ts', seconds: 10.4 },
      { tier: 'unit', file: 'test/b.test.ts', seconds: 5 },
      { tier: 'api', file: 'test/c.test.ts', seconds: TIER_BUDGETS.api + 12 },
    ]);
    expect(lines).toEqual([
      'Tiers (files\u2019 own times summed, against the budget of test/support/tier-report.ts):',
      `  unit        15 s of ${TIER_BUDGETS.unit} s, 2 files: within budget`,
      `  api        ${TIER_BUDGETS.api + 12} s of ${TIER_BUDGETS.api} s, 1 files: OVER BUDGET by 12 s`,
      'Files of 20 s or more missing from LONG_FILES (test/support/long-first-sequencer.ts):',
      `  test/c.test.ts (api): ${TIER_BUDGETS.api + 12} s`,
    ]);
  });

  it('leaves out the long files the sequencer already starts first', () => {
    const lines = tierReport([{ tier: 'system', file: 'test/deploy/container.test.ts', seconds: 900 }]);
    expect(lines.some((line) => line.includes('missing from LONG_FILES'))).toBe(false);
  });
});

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { DEFAULT_RATE_LIMIT, formatConfigApply, runConfigApply } from '../../bench/config-apply.ts';
import { loadConfig } from '../../lib/platform/config.ts';

/**
 * The config-apply benchmark (bench/config-apply.ts) with tiny counts, so it cannot rot: both
 * runtimes, both methods, the one-by-one bound and its extrapolation, and the table.
 */

// The apply half needs the configuration engine (POST /v1/config/apply, issue 42's engine helper);
// it runs from the moment the engine is in the tree.
const engineLanded = existsSync(join(import.meta.dirname, '..', '..', 'lib', 'config-doc', 'engine.ts'));

describe('the config-apply benchmark', () => {
  it('runs at the product default rate limit', () => {
    const defaults = loadConfig('local', {}).rateLimit;
    expect(defaults).toEqual({
      perSecond: Number(DEFAULT_RATE_LIMIT.VIGIL_RATE_LIMIT_RPS),
      burst: Number(DEFAULT_RATE_LIMIT.VIGIL_RATE_LIMIT_BURST),
    });
  });

  it('creates checks one by one in both runtimes, bounded and extrapolated past the bound', async () => {
    const lines: string[] = [];
    const runs = await runConfigApply({
      counts: [30],
      oneByOneMax: 10,
      runtimes: ['local', 'cloud'],
      methods: ['one-by-one'],
      dynamodbEndpoint: inject('dynamodbEndpoint'),
      onProgress: (line) => lines.push(line),
    });
    expect(runs.map((r) => [r.runtime, r.method, r.checks, r.measured])).toEqual([
      ['local', 'one-by-one', 30, 10],
      ['cloud', 'one-by-one', 30, 10],
    ]);
    for (const run of runs) {
      expect(run.calls).toBeGreaterThanOrEqual(10);
      // The 20 checks not measured are extrapolated at a positive rate: more time, not less.
      expect(run.secondsForAll).toBeGreaterThan(run.seconds);
    }
    expect(lines).toHaveLength(2);
    expect(formatConfigApply(runs)).toContain('(extrapolated from 10 in');
  }, 120_000);

  it.skipIf(!engineLanded)(
    'applies the checks in one call in both runtimes',
    async () => {
      const runs = await runConfigApply({
        counts: [30],
        oneByOneMax: 30,
        runtimes: ['local', 'cloud'],
        methods: ['apply'],
        dynamodbEndpoint: inject('dynamodbEndpoint'),
        onProgress: () => {},
      });
      expect(runs.map((r) => [r.runtime, r.method, r.measured])).toEqual([
        ['local', 'apply', 30],
        ['cloud', 'apply', 30],
      ]);
      // Entities (2) and the blueprint are made first by their own calls, then the one apply.
      for (const run of runs) expect(run.calls - run.throttled).toBe(1);
    },
    120_000,
  );
});

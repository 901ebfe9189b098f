import { describe, expect, it } from 'vitest';
import { runCrashRounds } from '../support/crash-rounds.ts';

// Two of the benchmark's kill -9 rounds (`npm run bench -- --only crash` runs 32): real server
// processes on one SQLite file, one killed at the seam between a cell slot's results and its state
// moves, one from outside at a random moment; then every move the stored results imply is found once.
describe('kill -9 rounds of a mixed workload', () => {
  it('loses no state move and no acknowledged push result across the kills', async () => {
    const figures = await runCrashRounds({ rounds: 2 });

    expect(figures.seamKills).toBe(1);
    expect(figures.randomKills).toBe(1);
    expect(figures.expectedMoves).toBeGreaterThan(0);
    expect(figures, figures.mismatches.join('\n')).toMatchObject({
      lostMoves: 0,
      unexpectedMoves: 0,
      lostPushResults: 0,
    });
  }, 180_000);
});

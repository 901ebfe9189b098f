import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take a minute or more of a tier's time (a fresh-clone `.ci/run`, 2026-11-27), in
 * seconds. Each tier runs after the one before has ended (vitest.config.ts), so a long file that
 * starts last holds its tier alone at the end: in a fresh clone vitest has no durations of its own
 * yet and starts the largest files first, and these are small (`alert-truth-model.test.ts` is 33
 * lines and ran alone for its last 236 s). Started first, they run beside the rest.
 */
export const LONG_FILES: Record<string, number> = {
  'test/notify/alert-truth-model.test.ts': 215,
  'test/fuzz/route-table.test.ts': 114,
  'test/http/openapi-tester.test.ts': 87,
  'test/cloud/alert-truth-model.test.ts': 199,
  'test/handover/handover.test.ts': 104,
  'test/deploy/container.test.ts': 205,
  'test/cost/pull-check-cost.test.ts': 185,
  'test/cloud/store-outage.test.ts': 167,
  'test/infra/probe-region.test.ts': 99,
  'test/local/serve.test.ts': 93,
  'test/infra/synth-cli.test.ts': 92,
  'test/locations/quorum.test.ts': 71,
  'test/console/accessibility.test.ts': 68,
  'test/console/people.test.ts': 65,
  'test/console/checks.test.ts': 64,
  'test/console/live-stream.test.ts': 64,
  'test/local/backup-restore.test.ts': 62,
};

/** Vitest's order (tier by tier; failed, then longer by its cache, then larger), with each tier's LONG_FILES first, longest first. */
export default class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = `${this.ctx.config.root}/`;
    const seconds = (spec: TestSpecification) => LONG_FILES[spec.moduleId.replace(root, '')] ?? 0;
    // The sort is stable: files of one tier and one length keep vitest's order.
    const tier = (spec: TestSpecification) => spec.project.config.sequence.groupOrder;
    return sorted.sort((a, b) => tier(a) - tier(b) || seconds(b) - seconds(a));
  }
}

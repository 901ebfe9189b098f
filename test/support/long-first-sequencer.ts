import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { TIERS, type Tier } from '../tiers.ts';

/**
 * Every file that took 20 s or more (each file's time in one full run of `npx vitest run`,
 * 2026-11-28, on the 2-core machine beside other work: the figures are inflated, their order is
 * what counts), in seconds. Each group of tiers runs after the one before has ended
 * (vitest.config.ts), so a long file that starts last holds its group alone at the end: in a fresh clone vitest has no
 * durations of its own yet and starts the largest files first, and the longest are often small
 * (`alert-truth-model.test.ts` is 33 lines and once ran alone for its last 236 s; with only the
 * files of a minute or more listed, `sessions-limits` started 601 s into the api tier's 637).
 * Longest first, the shortest files fill the end. A file that comes to take 20 s goes on the list.
 */
export const LONG_FILES: Record<string, number> = {
  // api
  'test/fuzz/route-table.test.ts': 148,
  'test/notify/alert-truth-model.test.ts': 106,
  'test/http/openapi-tester.test.ts': 76,
  'test/people/sign-in-slowdown.test.ts': 46,
  'test/people/second-factor-lock.test.ts': 27,
  'test/people/sessions-lifecycle.test.ts': 43,
  'test/people/sessions-limits.test.ts': 31,
  'test/mcp/conformance.test.ts': 31,
  'test/people/password-reset.test.ts': 30,
  'test/checks/located-scheduling.test.ts': 30,
  'test/status/stream-replay.test.ts': 26,
  'test/reports/report-sweep.test.ts': 25,
  'test/push/cronburst-keys.test.ts': 28,
  // cloud
  'test/cloud/alert-truth-model.test.ts': 155,
  'test/people/sign-in-lockout.test.ts': 54,
  'test/status-pages/subscriber-quotas.test.ts': 44,
  'test/cloud/route-walk.test.ts': 42,
  'test/incidents/incident-root-cause.test.ts': 35,
  'test/status-pages/private-pages.test.ts': 34,
  'test/people/sessions.test.ts': 26,
  'test/security/tenant-isolation.test.ts': 22,
  'test/handover/handover.test.ts': 21,
  'test/cloud/grouping-flow.test.ts': 21,
  'test/cloud/job-kinds.test.ts': 25,
  'test/checks/hidden-outage.test.ts': 21,
  // browser
  'test/console/accessibility.test.ts': 147,
  'test/console/people.test.ts': 132,
  'test/console/live-stream.test.ts': 110,
  'test/console/checks.test.ts': 105,
  'test/console/settings.test.ts': 89,
  'test/console/delivery-log.test.ts': 82,
  'test/console/no-raw-ids.test.ts': 77,
  'test/console/check-locations.test.ts': 75,
  'test/console/maintenance.test.ts': 75,
  'test/console/people-onboarding.test.ts': 73,
  'test/console/checks-scale.test.ts': 70,
  'test/console/status-pages.test.ts': 66,
  'test/console/field-errors.test.ts': 63,
  'test/console/check-evidence.test.ts': 61,
  'test/console/journey.test.ts': 52,
  'test/console/status-board-scale.test.ts': 51,
  'test/console/search.test.ts': 51,
  'test/console/channel-types.test.ts': 49,
  'test/console/catalog.test.ts': 47,
  'test/console/incidents.test.ts': 47,
  'test/console/live-refresh.test.ts': 46,
  'test/console/channel-edit.test.ts': 45,
  'test/console/check-vitals.test.ts': 43,
  'test/console/on-call.test.ts': 43,
  'test/console/status.test.ts': 42,
  'test/console/uptime.test.ts': 42,
  'test/console/page-incidents.test.ts': 41,
  'test/console/config.test.ts': 41,
  'test/console/locations.test.ts': 40,
  'test/console/audit.test.ts': 39,
  'test/console/words.test.ts': 39,
  'test/console/channels.test.ts': 38,
  'test/console/check-trust.test.ts': 37,
  'test/console/subscriber-pages.test.ts': 37,
  'test/console/channel-email.test.ts': 35,
  'test/console/oauth-consent.test.ts': 30,
  'test/console/names.test.ts': 29,
  'test/console/ping-urls.test.ts': 28,
  'test/console/why-paged.test.ts': 28,
  'test/console/state-rule.test.ts': 25,
  'test/console/grouping.test.ts': 25,
  'test/console/ping-log.test.ts': 23,
  'test/console/channel-template.test.ts': 23,
  'test/console/location-steps.test.ts': 21,
  'test/console/contact-methods.test.ts': 21,
  'test/console/keys-last-admin.test.ts': 21,
  'test/console/assertions.test.ts': 21,
  'test/console/actions.test.ts': 20,
  // system
  'test/deploy/container.test.ts': 945,
  'test/cost/pull-check-cost.test.ts': 379,
  'test/cloud/store-outage.test.ts': 221,
  'test/infra/synth-cli.test.ts': 214,
  'test/local/serve.test.ts': 139,
  'test/infra/probe-region.test.ts': 121,
  'test/locations/quorum.test.ts': 115,
  'test/local/backup-restore.test.ts': 90,
  'test/check-types/browser.test.ts': 77,
  'test/agent/agent-process.test.ts': 59,
  'test/probes/browser-hostile.test.ts': 54,
  'test/cloud/browser-flow.test.ts': 56,
  'test/cli/vigil-run.test.ts': 53,
  'test/check-types/browser-api.test.ts': 37,
  'test/agent/region-browser.test.ts': 32,
  'test/cloud/browser-trace.test.ts': 30,
  'test/check-types/browser-trace.test.ts': 29,
  'test/locations/agent-routes-process.test.ts': 27,
  'test/push/durability.test.ts': 25,
  'test/actions/run-sigterm.test.ts': 24,
  'test/notify/kill.test.ts': 22,
  'test/cost/ping-cost.test.ts': 21,
  'test/check-types/browser-evidence.test.ts': 21,
  'test/importers/kuma-browser-run.test.ts': 21,
  'test/http/openapi-document.test.ts': 21,
};

/**
 * Vitest's order (group by group; failed, then longer by its cache, then larger), then within a
 * group tier by tier in TIERS' order (the fastest feedback first; a worker keeps its module graph
 * while its next file is of the same tier), each tier's LONG_FILES first, longest first
 * (longest-processing-time order).
 */
export default class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = `${this.ctx.config.root}/`;
    const seconds = (spec: TestSpecification) => LONG_FILES[spec.moduleId.replace(root, '')] ?? 0;
    const group = (spec: TestSpecification) => spec.project.config.sequence.groupOrder;
    const tier = (spec: TestSpecification) => TIERS.indexOf(spec.project.name as Tier);
    // The sort is stable: files of one tier and one length keep vitest's order.
    return sorted.sort((a, b) => group(a) - group(b) || tier(a) - tier(b) || seconds(b) - seconds(a));
  }
}

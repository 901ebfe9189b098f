import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REVISIONS, runConformance } from './conformance-support.ts';
import { MCP_RUNTIMES, type McpRuntime } from './mcp-runtimes.ts';

// The official MCP conformance suite (@modelcontextprotocol/conformance) against /v1/mcp of both
// runtimes, once per revision it speaks (`--requirements <revision>`: every server scenario the
// revision requires, run at its wire version, plus the ones it runs unscored). The suite sends no
// credentials, so it talks to a loopback front that adds the tenant's key (test/mcp/mcp-fronts.ts).
// What does not apply is listed with why in test/mcp/conformance/expected-failures-<revision>.yaml;
// the suite itself fails the run on a failure not listed there and on a listed one that passes.

const baseline = (revision: string) =>
  fileURLToPath(new URL(`./conformance/expected-failures-${revision}.yaml`, import.meta.url));

/** Scenarios that must pass whole, check by check, at each revision (the protocol's own). */
const MUST_PASS = {
  '2026-07-28': ['tools-list', 'dns-rebinding-protection', 'http-header-validation', 'completion-complete'],
  '2025-11-25': [
    'server-initialize',
    'ping',
    'tools-list',
    'dns-rebinding-protection',
    'completion-complete',
    'logging-set-level',
  ],
} as const;

describe.each(MCP_RUNTIMES)('the MCP conformance suite (%s)', (_name, start) => {
  let rt: McpRuntime;
  beforeAll(async () => {
    rt = await start({ addKey: true });
  }, 60_000);
  afterAll(() => rt?.close());

  it.each(REVISIONS)(
    'passes every applicable server scenario of %s',
    async (revision) => {
      const run = await runConformance(rt.url, {
        requirements: revision,
        expectedFailures: baseline(revision),
      });
      // The suite counts a WARNING (a SHOULD not met) as a failure too.
      const failing = [...run.scenarios].flatMap(([scenario, checks]) =>
        checks
          .filter((c) => c.status === 'FAILURE' || c.status === 'WARNING')
          .map((c) => `${scenario}:${c.id} ${c.status} ${c.errorMessage ?? ''}`),
      );
      const summary = run.output.slice(run.output.indexOf('=== SUMMARY'));
      expect(run.exitCode, `${summary}\n${failing.join('\n')}`).toBe(0);
      for (const scenario of MUST_PASS[revision]) {
        const checks = run.scenarios.get(scenario) ?? [];
        expect(checks.length, `${scenario} ran no checks`).toBeGreaterThan(0);
        for (const check of checks)
          expect(['SUCCESS', 'INFO'], `${scenario}: ${JSON.stringify(check)}`).toContain(check.status);
      }
      if (revision === '2026-07-28') {
        // The stateless lifecycle's own checks (server/discover, _meta, resultType) pass; only the
        // four needing fixture tools are listed as not applicable.
        const stateless = run.scenarios.get('server-stateless') ?? [];
        const passed = stateless.filter((c) => c.status === 'SUCCESS').map((c) => c.id);
        expect(passed).toEqual(expect.arrayContaining(['sep-2575-server-implements-discover']));
        expect(passed.length).toBeGreaterThanOrEqual(20);
      }
    },
    300_000,
  );
});

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The API tests run on the local runtime only; the cloud path keeps one end-to-end test per flow,
 * here in test/cloud, each driving the Lambda handlers (the Lambda harness, the cloud harness or the
 * cloud composition) and none of them a runtime-parametrised suite that could be switched to local.
 * Job kinds and change-feed consumers are covered by construction (job-kinds, stream-consumers).
 */

const FLOWS: Record<string, string> = {
  probe: 'checks-flow.test.ts',
  push: 'push-flow.test.ts',
  alert: 'notify-flow.test.ts',
  action: 'actions-flow.test.ts',
  purge: 'purge-flow.test.ts',
  locations: 'locations-flow.test.ts',
  'MCP streaming': 'mcp-flow.test.ts',
  'job kinds': 'job-kinds.test.ts',
  'change-feed consumers': 'stream-consumers.test.ts',
};

describe('the cloud flows', () => {
  it.each(Object.entries(FLOWS))(
    'keeps an end-to-end test of the %s flow on the Lambda handlers (%s)',
    (_, file) => {
      const path = join(import.meta.dirname, file);
      expect(existsSync(path)).toBe(true);
      const text = readFileSync(path, 'utf8');
      expect(text).toMatch(/startLambdaHarness|startCloudHarness|createCloudApp/);
      expect(text).not.toMatch(/describe\.each\(runtimes\)/);
    },
  );
});

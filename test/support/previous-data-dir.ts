import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LocalRuntime, startLocalRuntime } from '../../lib/local/runtime.ts';
import type { Clock } from '../../lib/platform/clock.ts';
import { loadConfig } from '../../lib/platform/config.ts';
import { createSqliteTable, openSqliteDatabase } from '../../lib/sqlite/sqlite-table.ts';
import type { Table } from '../../lib/store/table.ts';

/** The current release started on a data directory another release wrote, and how to stop it. */
export interface UpgradedRuntime {
  runtime: LocalRuntime;
  stop(): Promise<void>;
}

/**
 * An upgrade test's start: a new SQLite data directory (`prefix` names it) filled by `load` with a
 * previous release's items, then the local runtime of this release started on it (scheduler and
 * action schedule off, no rate or failure limits, logs silent, `env` on top, on `clock` if given),
 * as `npm start` would open it. `stop` stops the runtime and removes the directory.
 */
export async function startOnPreviousData(
  prefix: string,
  load: (table: Table) => Promise<void>,
  env: Record<string, string> = {},
  clock?: Clock,
): Promise<UpgradedRuntime> {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const table = createSqliteTable({ db: openSqliteDatabase(join(dataDir, 'vigil.db')) });
  await load(table);
  await table.close();
  const settings = {
    VIGIL_LOG_LEVEL: 'silent',
    VIGIL_RATE_LIMIT_RPS: '0',
    VIGIL_AUTH_FAILURE_LIMIT: '0',
    ...env,
  };
  const runtime = await startLocalRuntime({
    config: { ...loadConfig('local', settings), dataDir, port: 0 },
    host: '127.0.0.1',
    scheduler: false,
    actionSchedule: false,
    ...(clock ? { clock } : {}),
  });
  return {
    runtime,
    async stop() {
      await runtime.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

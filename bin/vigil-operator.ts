// The operator commands of `npm run vigil` (tenants, keys, migrations, backups): bin/vigil.ts dispatches here.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { OperatorKeyError } from '../lib/auth/services.ts';
import { backupDataDir, restoreDataDir } from '../lib/cli/backup.ts';
import { deadLetterRedrive } from '../lib/cli/dlq.ts';
import { OPERATOR_USAGE, runOperatorCommand, UsageError } from '../lib/cli/operator.ts';
import { createDynamoTable } from '../lib/dynamodb/dynamodb-table.ts';
import { DataDirLockedError } from '../lib/local/data-dir-lock.ts';
import { systemClock } from '../lib/platform/clock.ts';
import { loadConfig } from '../lib/platform/config.ts';
import { AppError } from '../lib/platform/errors.ts';
import { createSqliteTable, openSqliteDatabase } from '../lib/sqlite/sqlite-table.ts';
import type { Table } from '../lib/store/table.ts';

const config = loadConfig('local');

function openTable(): Table {
  if (config.store === 'dynamodb') {
    const client = new DynamoDBClient({
      region: config.region,
      ...(config.dynamodbEndpoint ? { endpoint: config.dynamodbEndpoint } : {}),
    });
    return createDynamoTable({ client, tableName: config.tableName });
  }
  mkdirSync(config.dataDir, { recursive: true });
  return createSqliteTable({ db: openSqliteDatabase(join(config.dataDir, 'vigil.db')) });
}

const args = process.argv.slice(2);
if (args.length === 0 || args.includes('--help')) {
  process.stdout.write(`${OPERATOR_USAGE}\n`);
  process.exit(args.length === 0 ? 2 : 0);
}
// Backup and restore work on the data dir's file, not through the table (lib/cli/backup.ts).
const [command, file, ...extra] = args;
if (command === 'backup' || command === 'restore') {
  try {
    if (!file || extra.length > 0) throw new UsageError(`usage: npm run vigil -- ${command} <file>`);
    if (config.store !== 'sqlite') throw new UsageError(`${command} is for the local runtime's SQLite data`);
    const run = command === 'backup' ? backupDataDir : restoreDataDir;
    process.stdout.write(`${await run(config.dataDir, file)}\n`);
  } catch (err) {
    const known = err instanceof UsageError || err instanceof DataDirLockedError;
    process.stderr.write(`error: ${known ? err.message : String(err)}\n`);
    process.exit(err instanceof UsageError ? 2 : 1);
  }
  process.exit(0);
}
const table = openTable();
try {
  process.stdout.write(
    `${await runOperatorCommand(args, {
      table,
      clock: systemClock,
      dueShards: config.dueShards,
      redriveDeadLetters: deadLetterRedrive({ config, table, clock: systemClock }),
    })}\n`,
  );
} catch (err) {
  const known = err instanceof UsageError || err instanceof OperatorKeyError || err instanceof AppError;
  const message = known ? err.message : String(err);
  process.stderr.write(`error: ${message}\n`);
  process.exitCode = err instanceof UsageError ? 2 : 1;
} finally {
  await table.close();
}

import { parseArgs } from 'node:util';
import { recordOperatorWrite } from '../audit/operator-audit.ts';
import type { PlanLimits } from '../auth/records.ts';
import { createOperatorKey } from '../auth/services.ts';
import { createTenantStore } from '../auth/tenants.ts';
import { migrateCheckItems } from '../checks/services.ts';
import { starterSkillOps } from '../features/feature-routes.ts';
import { runMigrations } from '../migrations.ts';
import type { Clock } from '../platform/clock.ts';
import { silentLogger } from '../platform/logger.ts';
import { migrateStatusCounters } from '../status/status-migration.ts';
import type { Table } from '../store/table.ts';
import { REDRIVE_QUEUES, type RedriveDeadLetters } from './dlq.ts';

export const OPERATOR_USAGE = `Usage: npm run vigil -- <command>

  tenant create --name <name> --email <email> [--key <vgl_ key>]
      Create a tenant with its admin user and first API key (printed once).
  tenant list
      List tenants with their plan limits and status.
  tenant limits <tenant_id> [--blueprint-limit N] [--entity-limit-per-bp N]
                            [--check-limit-per-entity N] [--retention-days N]
                            [--email-daily-limit N]
      Set plan limits (--email-daily-limit: emails per UTC day, one per recipient; default 200).
  tenant disable <tenant_id>    Disable a tenant (its keys get 403 ACCOUNT_DISABLED).
  tenant enable <tenant_id>     Enable it again.
  key create --tenant <tenant_id> [--read-only] [--name <label>]
      Issue an API key for an existing tenant (printed once), owned by its oldest admin: a way
      back in when no admin key is left. Read-write unless --read-only; labelled "operator"
      unless --name is given.
  data migrate
      Run every data migration in order (check layout, status counters, cells, entity search
      keys) and print what each did (idempotent; run once after every \`cdk deploy\` upgrade; the
      local runtime does it at startup). Use the deployment's VIGIL_DUE_SHARDS.
  checks migrate
      Move checks stored in the first layout (one item) to the definition and state items
      (idempotent; run once after deploying this version; the local runtime does it at startup).
  status migrate
      Seed each tenant's status counters and state index from its entities (idempotent; run once
      after deploying this version; the local runtime does it at startup).
  dlq redrive <notify|action|probe>
      Move the queue's dead letters back to it and print how many moved. Deployed (VIGIL_STORE=
      dynamodb): from the SQS DLQ to VIGIL_<NOTIFY|ACTION|PROBE>_QUEUE_URL; local: the stored
      dead letters become queued jobs again, run at the runtime's next start.
  backup <file>
      Copy the local runtime's database (VIGIL_DATA_DIR/vigil.db) to <file> with SQLite's online
      backup API: consistent while the server runs (a plain cp of vigil.db is not).
  restore <file>
      Replace the local database with the backup <file> (checked to be a Vigil database first);
      refused while a server uses the data dir. The old database is kept as vigil.db.before-restore.
  run --ping <ping URL> [options] -- <command> [args...]
      Run a job and report it to a push check's ping URL (/start, then /<exit status> with the
      output's tail); needs no store. \`npm run vigil -- run --help\` lists the options.
  export [-o <file>] [--json] | plan -f <file> [--prune] | apply -f <file> [--prune] [--yes]
      The tenant's configuration as a document, what applying one would change (exit 2 when
      something would), applying it; call a server with --url/--key (VIGIL_URL, VIGIL_API_KEY)
      and need no store. \`npm run vigil -- plan --help\` says more.
  import gatus <config.yaml>
  import kuma <backup.json | kuma.db>
  import healthchecks --url <https://healthchecks.io> --api-key <key>
      Convert a Gatus config, an Uptime Kuma backup or database, or a Healthchecks project
      (its key may come from HEALTHCHECKS_API_KEY) into a configuration document: YAML on stdout,
      what could not be mapped on stderr; needs no store (docs/importers.md).

The store comes from configuration (VIGIL_STORE, VIGIL_DATA_DIR, VIGIL_TABLE_NAME, ...).`;

export class UsageError extends Error {
  override name = 'UsageError';
}

const limitFlags = {
  'blueprint-limit': 'blueprint_limit',
  'entity-limit-per-bp': 'entity_limit_per_bp',
  'check-limit-per-entity': 'check_limit_per_entity',
  'retention-days': 'retention_days',
  'email-daily-limit': 'email_daily_limit',
} as const;

function parseCount(flag: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`--${flag} must be a whole number >= 0`);
  if (flag === 'retention-days' && n < 1) throw new UsageError('--retention-days must be at least 1');
  return n;
}

function parseOperatorArgs(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        name: { type: 'string' },
        email: { type: 'string' },
        key: { type: 'string' },
        tenant: { type: 'string' },
        'read-only': { type: 'boolean' },
        'blueprint-limit': { type: 'string' },
        'entity-limit-per-bp': { type: 'string' },
        'check-limit-per-entity': { type: 'string' },
        'retention-days': { type: 'string' },
        'email-daily-limit': { type: 'string' },
      },
    });
  } catch (err) {
    // parseArgs throws TypeError for unknown or malformed flags (e.g. '--blueprint-limit -1').
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
}

/** The longest key label, as POST /v1/auth/keys allows. */
const MAX_LABEL = 100;

/** `key create`: a key for an existing tenant; its raw key is printed this once. */
async function createKey(
  values: ReturnType<typeof parseOperatorArgs>['values'],
  deps: { table: Table; clock: Clock },
  tenants: ReturnType<typeof createTenantStore>,
): Promise<string> {
  if (!values.tenant) throw new UsageError('key create needs --tenant <tenant_id> (see `tenant list`)');
  const label = (values.name ?? 'operator').trim();
  if (label.length === 0 || label.length > MAX_LABEL)
    throw new UsageError(`--name must be 1 to ${MAX_LABEL} characters`);
  const readOnly = values['read-only'] ?? false;
  const { admin, created } = await createOperatorKey(
    { tenantId: values.tenant, label, readOnly },
    { ...deps, tenants },
  );
  await recordOperatorWrite(deps, {
    tenantId: values.tenant,
    action: 'api_key.create',
    target: { type: 'api_key', id: created.id },
    summary: `fields: is_read_only, label; label: ${JSON.stringify(label)}`,
  });
  return JSON.stringify(
    {
      tenant_id: values.tenant,
      user_id: admin.id,
      user_email: admin.email,
      key_id: created.id,
      label: created.label,
      is_read_only: created.is_read_only,
      api_key: created.key,
    },
    null,
    2,
  );
}

/** What the operator commands run against. */
export interface OperatorDeps {
  table: Table;
  clock: Clock;
  /** The deployment's due shard count (config.dueShards), where `data migrate` puts new cells. */
  dueShards?: number;
  /** `dlq redrive` (lib/cli/dlq.ts); without it the command is refused. */
  redriveDeadLetters?: RedriveDeadLetters;
}

/** `dlq redrive <queue>`: the store's dead letters of a known queue back to it. */
async function redrive(deps: OperatorDeps, queue: string | undefined): Promise<string> {
  const known = REDRIVE_QUEUES.find((name) => name === queue);
  if (!known) throw new UsageError(`dlq redrive needs a queue: ${REDRIVE_QUEUES.join(', ')}`);
  if (!deps.redriveDeadLetters) throw new UsageError('dlq redrive is not available here');
  const { moved } = await deps.redriveDeadLetters(known);
  return JSON.stringify({ queue: known, moved }, null, 2);
}

/** The shard count of a default configuration (VIGIL_DUE_SHARDS unset). */
const DEFAULT_DUE_SHARDS = 4;

/** `data migrate`: every migration, in the order the layouts followed each other (lib/migrations.ts). */
async function migrateData(deps: OperatorDeps, tenants: ReturnType<typeof createTenantStore>) {
  const summary = await runMigrations({
    table: deps.table,
    clock: deps.clock,
    tenants,
    logger: silentLogger,
    dueShards: deps.dueShards ?? DEFAULT_DUE_SHARDS,
  });
  return JSON.stringify(summary, null, 2);
}

const tenantTarget = (id: string) => ({ type: 'tenant', id });

/** Runs one operator command against `table`; returns what to print. Throws UsageError on bad input. */
export async function runOperatorCommand(argv: string[], deps: OperatorDeps): Promise<string> {
  // A tenant created here starts with the catalog-ops skill, as the app's do.
  const tenants = createTenantStore(deps.table, deps.clock, { starter: starterSkillOps });
  const { values, positionals } = parseOperatorArgs(argv);
  const [group, command, id] = positionals;
  if (group === 'data' && command === 'migrate') return migrateData(deps, tenants);
  if (group === 'checks' && command === 'migrate') {
    const moved = await migrateCheckItems({ ...deps, tenants, logger: silentLogger });
    return JSON.stringify({ checks_migrated: moved }, null, 2);
  }
  if (group === 'status' && command === 'migrate') {
    const seeded = await migrateStatusCounters({ ...deps, tenants, logger: silentLogger });
    return JSON.stringify({ tenants_seeded: seeded }, null, 2);
  }
  if (group === 'key' && command === 'create') return createKey(values, deps, tenants);
  if (group === 'dlq' && command === 'redrive') return redrive(deps, id);
  if (group !== 'tenant') throw new UsageError(OPERATOR_USAGE);
  const requireId = () => {
    if (!id) throw new UsageError(`tenant ${command} needs a tenant id`);
    return id;
  };

  switch (command) {
    case 'create': {
      if (!values.name || !values.email) throw new UsageError('tenant create needs --name and --email');
      if (!/^[^@\s]+@[^@\s]+$/.test(values.email)) throw new UsageError('--email is not an e-mail address');
      const created = await tenants.createTenant({
        name: values.name,
        email: values.email,
        rawKey: values.key,
      });
      const summary = `fields: email, name; name: ${JSON.stringify(values.name.slice(0, 100))}`;
      const target = tenantTarget(created.tenant.id);
      await recordOperatorWrite(deps, {
        tenantId: created.tenant.id,
        action: 'tenant.create',
        target,
        summary,
      });
      return JSON.stringify(
        { tenant_id: created.tenant.id, user_id: created.user.id, api_key: created.rawKey },
        null,
        2,
      );
    }
    case 'list':
      return JSON.stringify(await tenants.listTenants(), null, 2);
    case 'limits': {
      const limits: Partial<PlanLimits> = {};
      for (const [flag, field] of Object.entries(limitFlags)) {
        const value = values[flag as keyof typeof limitFlags];
        if (value !== undefined) limits[field] = parseCount(flag, value);
      }
      if (Object.keys(limits).length === 0)
        throw new UsageError('tenant limits needs at least one limit flag');
      const changed = await tenants.setLimits(requireId(), limits);
      const summary = `fields: ${Object.keys(limits).sort().join(', ')}`;
      await recordOperatorWrite(deps, {
        tenantId: requireId(),
        action: 'tenant.limits',
        target: tenantTarget(requireId()),
        summary,
      });
      return JSON.stringify(changed, null, 2);
    }
    case 'disable':
    case 'enable': {
      const changed = await tenants.setDisabled(requireId(), command === 'disable');
      const target = tenantTarget(requireId());
      await recordOperatorWrite(deps, {
        tenantId: requireId(),
        action: `tenant.${command}`,
        target,
        summary: '',
      });
      return JSON.stringify(changed, null, 2);
    }
    default:
      throw new UsageError(OPERATOR_USAGE);
  }
}

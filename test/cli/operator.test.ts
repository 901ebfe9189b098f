import { describe, expect, it } from 'vitest';
import { runOperatorCommand, UsageError } from '../../lib/cli/operator.ts';
import { systemClock } from '../../lib/platform/clock.ts';
import { createSqliteTable, openSqliteDatabase } from '../../lib/store/sqlite-table.ts';

function operator() {
  const table = createSqliteTable({ db: openSqliteDatabase(':memory:') });
  return (argv: string[]) => runOperatorCommand(argv, { table, clock: systemClock });
}

describe('the operator CLI', () => {
  it('creates a tenant with its admin and first key, and lists it with default limits', async () => {
    const run = operator();
    const created = JSON.parse(await run(['tenant', 'create', '--name', 'Acme', '--email', 'ops@acme.test']));
    expect(created.tenant_id).toMatch(/^tnt_/);
    expect(created.user_id).toMatch(/^usr_/);
    expect(created.api_key).toMatch(/^vgl_/);
    const [tenant] = JSON.parse(await run(['tenant', 'list']));
    expect(tenant).toMatchObject({
      name: 'Acme',
      email: 'ops@acme.test',
      disabled: false,
      blueprint_limit: 50,
    });
    expect(JSON.stringify(tenant)).not.toContain(created.api_key);
  });

  it('sets limits and disables and enables a tenant', async () => {
    const run = operator();
    const { tenant_id } = JSON.parse(await run(['tenant', 'create', '--name', 'A', '--email', 'a@a.test']));
    const limited = JSON.parse(await run(['tenant', 'limits', tenant_id, '--check-limit-per-entity', '5']));
    expect(limited.check_limit_per_entity).toBe(5);
    expect(JSON.parse(await run(['tenant', 'disable', tenant_id])).disabled).toBe(true);
    expect(JSON.parse(await run(['tenant', 'enable', tenant_id])).disabled).toBe(false);
  });

  it.each([
    [['nonsense']],
    [['tenant', 'create', '--name', 'x']],
    [['tenant', 'create', '--name', 'x', '--email', 'not-an-email']],
    [['tenant', 'limits', 'tnt_x']],
    [['tenant', 'limits', 'tnt_x', '--blueprint-limit', '-1']],
    [['tenant', 'limits', 'tnt_x', '--retention-days', '0']],
    [['tenant', 'disable']],
  ])('rejects %j with a usage error', async (argv) => {
    await expect(operator()(argv)).rejects.toBeInstanceOf(UsageError);
  });

  it('rejects a preset key that is not in the vgl_ format', async () => {
    await expect(
      operator()(['tenant', 'create', '--name', 'x', '--email', 'x@x.test', '--key', 'vgl_short']),
    ).rejects.toThrow(/vgl_/);
  });

  it('answers not found for an unknown tenant', async () => {
    await expect(operator()(['tenant', 'disable', 'tnt_01ARZ3NDEKTSV4RRFFQ69G5FAV'])).rejects.toThrow(
      /not found/,
    );
  });
});

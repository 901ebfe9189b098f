import { describe, expect, it } from 'vitest';
import { OperatorKeyError } from '../../lib/auth/keys/operator-key.ts';
import { runOperatorCommand, UsageError } from '../../lib/cli/operator.ts';
import { systemClock } from '../../lib/platform/clock.ts';
import { createSqliteTable, openSqliteDatabase } from '../../lib/sqlite/sqlite-table.ts';

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
    [['key', 'create']],
    [['key', 'create', '--tenant', 'tnt_x', '--name', '  ']],
    [['key', 'create', '--tenant', 'tnt_x', '--name', 'x'.repeat(101)]],
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

  it('issues a key for an existing tenant, owned by its admin, printed once', async () => {
    const run = operator();
    const tenant = JSON.parse(await run(['tenant', 'create', '--name', 'Acme', '--email', 'ops@acme.test']));

    const readWrite = JSON.parse(await run(['key', 'create', '--tenant', tenant.tenant_id]));
    const readOnly = JSON.parse(
      await run(['key', 'create', '--tenant', tenant.tenant_id, '--read-only', '--name', 'wall screen']),
    );

    expect(readWrite).toMatchObject({
      tenant_id: tenant.tenant_id,
      user_id: tenant.user_id,
      user_email: 'ops@acme.test',
      label: 'operator',
      is_read_only: false,
    });
    expect(readWrite.key_id).toMatch(/^key_/);
    expect(readWrite.api_key).toMatch(/^vgl_/);
    expect(readWrite.api_key).not.toBe(tenant.api_key);
    expect(readOnly).toMatchObject({ label: 'wall screen', is_read_only: true, user_id: tenant.user_id });
  });

  it('refuses a key for an unknown tenant in words', async () => {
    const argv = ['key', 'create', '--tenant', 'tnt_01ARZ3NDEKTSV4RRFFQ69G5FAV'];
    const error = await operator()(argv).catch((err: unknown) => err);

    expect(error).toBeInstanceOf(OperatorKeyError);
    expect((error as Error).message).toBe(
      'there is no tenant tnt_01ARZ3NDEKTSV4RRFFQ69G5FAV; `npm run vigil -- tenant list` shows the tenants and their ids',
    );
  });
});

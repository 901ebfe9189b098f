import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { definitionFromCreate } from '../../lib/checks/check-input.ts';
import { probeDefinition } from '../../lib/checks/probe-job.ts';
import { checkDefinitionSchema } from '../../lib/checks/records.ts';
import { checkPartitionPurgeOp } from '../../lib/checks/services/check-purge.ts';
import { ValidationError } from '../../lib/platform/errors.ts';
import { purgeJobSchema } from '../../lib/purge/purge-job-items.ts';

/** A stored check definition item as the API writes it, with the type and config given. */
function storedItem(check_type: string, config: Record<string, unknown>) {
  return {
    pk: 'TENANT#tnt_01JT0000000000000000000000',
    sk: 'CHECK#chk_01JT0000000000000000000000',
    entity: 'check',
    gsi1pk: 'ENT#ent_01JT0000000000000000000000#CHECKS',
    gsi1sk: 'chk_01JT0000000000000000000000',
    id: 'chk_01JT0000000000000000000000',
    tenant_id: 'tnt_01JT0000000000000000000000',
    entity_id: 'ent_01JT0000000000000000000000',
    blueprint_slug: 'service',
    entity_slug: 'api',
    check_type,
    execution_mode: check_type === 'push' ? 'push' : 'pull',
    target_url: null,
    method: 'GET',
    headers: {},
    body: null,
    expected_status: 200,
    body_contains: '',
    interval_seconds: 60,
    timeout_ms: 2000,
    failure_threshold: 3,
    enabled: true,
    config,
    created_at: '2026-03-01T12:00:00.000Z',
    updated_at: '2026-03-01T12:00:00.000Z',
    version: 1,
  };
}

describe('check config, typed by check_type', () => {
  it('probes a stored tcp check with its typed host and port', () => {
    const check = checkDefinitionSchema.parse(storedItem('tcp', { host: 'db.internal', port: 5432 }));
    expect(probeDefinition(check)).toEqual({
      check_type: 'tcp',
      host: 'db.internal',
      port: 5432,
      timeout_ms: 2000,
    });
  });

  it('reads a port stored as digits as the number it spells', () => {
    const check = checkDefinitionSchema.parse(storedItem('tls', { host: 'example.org', port: '8443' }));
    expect(probeDefinition(check)).toEqual({
      check_type: 'tls',
      host: 'example.org',
      port: 8443,
      timeout_ms: 2000,
    });
  });

  it('refuses to read a stored check whose config does not fit its type, instead of probing a guess', () => {
    expect(() =>
      checkDefinitionSchema.parse(storedItem('tcp', { host: 'db.internal', port: 'eighty' })),
    ).toThrow(ZodError);
    expect(() => checkDefinitionSchema.parse(storedItem('dns', { hostname: 'example.org' }))).toThrow(
      ZodError,
    );
  });

  it('drops config keys its type does not use when reading a stored check', () => {
    const check = checkDefinitionSchema.parse(
      storedItem('dns', { hostname: 'example.org', record_type: 'MX', grace_seconds: 5 }),
    );
    expect(check.config).toEqual({ hostname: 'example.org', record_type: 'MX' });
  });

  it('keeps optional config keys out of the probe when they are not set', () => {
    const check = checkDefinitionSchema.parse(
      storedItem('dns', { hostname: 'example.org', record_type: 'A' }),
    );
    expect(probeDefinition(check)).toEqual({
      check_type: 'dns',
      hostname: 'example.org',
      record_type: 'A',
      timeout_ms: 2000,
    });
  });

  it('does not probe push checks', () => {
    expect(
      probeDefinition(checkDefinitionSchema.parse(storedItem('push', { grace_seconds: 30 }))),
    ).toBeUndefined();
  });

  it('parses a create body into the config of its type, naming the field it rejects', () => {
    const def = definitionFromCreate({
      entity_id: 'ent_01JT0000000000000000000000',
      check_type: 'tls',
      config: { host: ' example.org ', port: 443 },
    });
    expect(def.check_type === 'tls' && def.config).toEqual({ host: 'example.org', port: 443 });
    const bad = () =>
      definitionFromCreate({
        entity_id: 'ent_01JT0000000000000000000000',
        check_type: 'tcp',
        config: { host: 'db.internal', port: '5432' as unknown as number },
      });
    expect(bad).toThrow(ValidationError);
    expect(bad).toThrow(
      expect.objectContaining({ details: [expect.objectContaining({ path: 'config.port' })] }),
    );
  });

  it('builds the purge job of a deleted check partition as the purge consumer reads it', () => {
    const op = checkPartitionPurgeOp('tnt_01JT0000000000000000000000', 'chk_01JT0000000000000000000000');
    if (op.type !== 'put') throw new Error('the purge job is a put');
    const { item } = op;
    expect(item).toMatchObject({ pk: 'PURGE#tnt_01JT0000000000000000000000', entity: 'purge_job' });
    expect(purgeJobSchema.parse(item)).toEqual({
      kind: 'partition',
      tenant_id: 'tnt_01JT0000000000000000000000',
      partition: 'CHECK#chk_01JT0000000000000000000000',
      round: 0,
    });
  });
});

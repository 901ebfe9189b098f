import type { IntegrationRecord } from '../../../lib/integrations/items/integration-items.ts';

/**
 * A stored alertmanager integration for the ingest tests: one rule naming `service/<labels.service>`,
 * its own entity `ent_integration`, a fresh id each call unless `overrides` names one.
 */
export function integrationRecord(overrides: Partial<IntegrationRecord> = {}): IntegrationRecord {
  return {
    id: `int_${Math.random().toString(36).slice(2, 10)}`,
    tenant_id: 'tnt_a',
    name: 'Prometheus',
    kind: 'alertmanager',
    enabled: true,
    entity_rules: [{ match: {}, entity: 'service/{{labels.service}}' }],
    severity_map: {},
    settings: null,
    entity_id: 'ent_integration',
    token_hash: 'h',
    token_prefix: 'p',
    sns_topic_arn: null,
    created_at: '2026-11-28T00:00:00.000Z',
    updated_at: '2026-11-28T00:00:00.000Z',
    version: 1,
    ...overrides,
  };
}

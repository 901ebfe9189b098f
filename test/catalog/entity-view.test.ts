import { describe, expect, it } from 'vitest';
import type { BlueprintRecord } from '../../lib/catalog/blueprints/blueprint-items.ts';
import { entityView } from '../../lib/catalog/entities/entity-views.ts';
import { DEFAULT_STATE_RULE } from '../../lib/domain/states.ts';
import { apiEntity } from './entity-fixture.ts';

/** Which state rule an entity reads as its own (`effective_state_rule`): its own, its blueprint's, or the default. */

const AT = '2026-01-01T00:00:00.000Z';
const blueprint = (rule?: BlueprintRecord['state_rule']): BlueprintRecord => ({
  id: 'bp_1',
  slug: 'svc',
  name: 'Services',
  description: '',
  fields: [],
  is_default: false,
  ...(rule === undefined ? {} : { state_rule: rule }),
  created_at: AT,
  updated_at: AT,
  entity_count: 1,
  version: 1,
});

describe('an entity as returned', () => {
  it('reads its own rule first, then its blueprint’s', () => {
    expect(entityView(blueprint('all_down'), { ...apiEntity(AT), state_rule: 'worst' })).toMatchObject({
      state_rule: 'worst',
      effective_state_rule: 'worst',
    });
    expect(entityView(blueprint('all_down'), apiEntity(AT))).toMatchObject({
      state_rule: null,
      effective_state_rule: 'all_down',
    });
  });

  it('reads the default rule when its blueprint was stored before rules were', () => {
    expect(DEFAULT_STATE_RULE).toBe('worst');
    expect(entityView(blueprint(), apiEntity(AT))).toMatchObject({
      state_rule: null,
      effective_state_rule: 'worst',
    });
  });
});

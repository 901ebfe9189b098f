import { describe, expect, it } from 'vitest';
import { blueprintCreatedOp, entityCountOp } from '../../lib/catalog/blueprints/blueprint-items.ts';
import {
  entityChecksOp,
  entityCreatedOps,
  entityDeletedOps,
  entityPatchedOps,
  pointerNamedOps,
} from '../../lib/catalog/entities/entity-items.ts';
import { entityAddedOps, stateMoveOps } from '../../lib/catalog/entities/entity-state-index-items.ts';
import { deleteRelationOps, newRelationOps } from '../../lib/catalog/relations/relation-items.ts';
import { apiEntity } from './entity-fixture.ts';

/**
 * The catalog's owner modules write the items docs/data-model.md describes, key for key and
 * attribute for attribute (the layout stored data already has): these spell them out.
 */

const TNT = 'tnt_1';
const entity = apiEntity('t0');
const held = (version: number) => ({ kind: 'compare', attr: 'version', op: '=', value: version });

describe('the catalog owner modules', () => {
  it('write an entity, its pointer and its status index entry under the documented keys', () => {
    expect([...entityCreatedOps(TNT, entity), ...entityAddedOps(TNT, entity, 'unknown')]).toEqual([
      {
        type: 'put',
        // No index keys: every state change updates this item, and an index entry would be written with it.
        item: { pk: 'TENANT#tnt_1', sk: 'ENT#svc#api', entity: 'entity', schema_version: 1, ...entity },
        condition: { kind: 'itemNotExists' },
      },
      {
        type: 'put',
        item: {
          pk: 'TENANT#tnt_1',
          sk: 'ENTID#ent_1',
          entity: 'entity_pointer',
          schema_version: 1,
          id: 'ent_1',
          blueprint_slug: 'svc',
          slug: 'api',
          name: 'API',
          // search_entities' indexes, on the pointer (state changes never write it).
          gsi1pk: 'ENTNAME#tnt_1',
          gsi1sk: 'api#ent_1',
          gsi2pk: 'ENTSLUG#tnt_1',
          gsi2sk: 'api#svc',
        },
        condition: { kind: 'itemNotExists' },
      },
      {
        type: 'update',
        key: { pk: 'STATUS#tnt_1', sk: 'COUNTS' },
        set: { entity: 'status_counters', schema_version: 1 },
        add: { unknown: 1, version: 1 },
      },
      {
        type: 'put',
        item: {
          pk: 'STATUS#tnt_1#unknown',
          sk: 'ENT#svc#api',
          entity: 'status_entry',
          schema_version: 1,
          entity_id: 'ent_1',
        },
      },
    ]);
    expect(entityDeletedOps(TNT, entity)).toEqual([
      { type: 'delete', key: { pk: 'TENANT#tnt_1', sk: 'ENT#svc#api' }, condition: held(1) },
      { type: 'delete', key: { pk: 'TENANT#tnt_1', sk: 'ENTID#ent_1' } },
    ]);
  });

  it('rename an entity on its pointer too, and backfill an old pointer held on what was read', () => {
    const change = { name: 'Public API', fields: {}, updated_at: 't1' };
    expect(entityPatchedOps(TNT, entity, change)).toEqual([
      {
        type: 'update',
        key: { pk: 'TENANT#tnt_1', sk: 'ENT#svc#api' },
        set: change,
        add: { version: 1 },
        condition: held(1),
      },
      {
        type: 'update',
        key: { pk: 'TENANT#tnt_1', sk: 'ENTID#ent_1' },
        set: {
          name: 'Public API',
          gsi1pk: 'ENTNAME#tnt_1',
          gsi1sk: 'public api#ent_1',
          gsi2pk: 'ENTSLUG#tnt_1',
          gsi2sk: 'api#svc',
        },
      },
    ]);
    // Fields alone: the pointer is not written.
    expect(entityPatchedOps(TNT, entity, { ...change, name: 'API' })).toHaveLength(1);
    const old = { id: 'ent_1', blueprint_slug: 'svc', slug: 'api' };
    expect(pointerNamedOps(TNT, old, 'API')).toEqual([
      {
        type: 'update',
        key: { pk: 'TENANT#tnt_1', sk: 'ENTID#ent_1' },
        set: {
          name: 'API',
          gsi1pk: 'ENTNAME#tnt_1',
          gsi1sk: 'api#ent_1',
          gsi2pk: 'ENTSLUG#tnt_1',
          gsi2sk: 'api#svc',
        },
        condition: {
          kind: 'and',
          conditions: [{ kind: 'itemExists' }, { kind: 'attrNotExists', attr: 'name' }],
        },
      },
      {
        type: 'conditionCheck',
        key: { pk: 'TENANT#tnt_1', sk: 'ENT#svc#api' },
        condition: {
          kind: 'and',
          conditions: [
            { kind: 'compare', attr: 'id', op: '=', value: 'ent_1' },
            { kind: 'compare', attr: 'name', op: '=', value: 'API' },
          ],
        },
      },
    ]);
  });

  it("write the checks engine's attributes and move the index entry with the state", () => {
    const state = { ...entity, check_states: {} };
    expect(
      entityChecksOp(TNT, state, {
        state: 'down',
        checkStates: { chk_1: 'down' },
        lastTransitionId: 'trn_1',
      }),
    ).toEqual({
      type: 'update',
      key: { pk: 'TENANT#tnt_1', sk: 'ENT#svc#api' },
      set: { state: 'down', last_transition_id: 'trn_1' },
      entries: { check_states: { set: { chk_1: 'down' }, remove: [] } },
      add: { version: 1 },
      condition: {
        kind: 'and',
        conditions: [held(1), { kind: 'itemExists' }, { kind: 'attrExists', attr: 'check_states' }],
      },
    });
    expect(stateMoveOps(TNT, entity, 'unknown', 'down')).toEqual([
      {
        type: 'update',
        key: { pk: 'STATUS#tnt_1', sk: 'COUNTS' },
        set: { entity: 'status_counters', schema_version: 1 },
        add: { unknown: -1, down: 1, version: 1 },
      },
      { type: 'delete', key: { pk: 'STATUS#tnt_1#unknown', sk: 'ENT#svc#api' } },
      {
        type: 'put',
        item: {
          pk: 'STATUS#tnt_1#down',
          sk: 'ENT#svc#api',
          entity: 'status_entry',
          schema_version: 1,
          entity_id: 'ent_1',
        },
      },
    ]);
    expect(stateMoveOps(TNT, entity, 'up', 'up')).toEqual([]);
  });

  it("write an unknown check's entry and the count without holding on the version a state move bumps", () => {
    const state = { ...entity, state: 'up' as const, check_states: { chk_1: 'up' as const } };
    const limit = { kind: 'compare', attr: 'check_count', op: '<', value: 5 } as const;
    const exists = { kind: 'itemExists' } as const;
    expect(
      entityChecksOp(TNT, state, {
        state: 'up',
        checkStates: { chk_1: 'up', chk_2: 'unknown' },
        countDelta: 1,
        condition: limit,
      }),
    ).toEqual({
      type: 'update',
      key: { pk: 'TENANT#tnt_1', sk: 'ENT#svc#api' },
      entries: { check_states: { set: { chk_2: 'unknown' }, remove: [] } },
      add: { check_count: 1 },
      condition: { kind: 'and', conditions: [exists, limit, { kind: 'attrExists', attr: 'check_states' }] },
    });
    // An entity without the map yet: the whole map, held on its absence.
    expect(
      entityChecksOp(TNT, entity, { state: 'unknown', checkStates: { chk_2: 'unknown' } }),
    ).toMatchObject({
      set: { check_states: { chk_2: 'unknown' } },
      condition: { conditions: [exists, { kind: 'attrNotExists', attr: 'check_states' }] },
    });
    // Taking out a known check can move the aggregate: held on the version.
    expect(entityChecksOp(TNT, state, { state: 'unknown', checkStates: {}, countDelta: -1 })).toMatchObject({
      entries: { check_states: { set: {}, remove: ['chk_1'] } },
      add: { version: 1, check_count: -1 },
      condition: { conditions: [held(1), exists, { kind: 'attrExists', attr: 'check_states' }] },
    });
  });

  it('write a blueprint and its entity counter under the documented keys', () => {
    const bp = {
      id: 'bp_1',
      slug: 'svc',
      name: 'Service',
      description: '',
      fields: [],
      is_default: false,
      created_at: 't0',
      updated_at: 't0',
      entity_count: 0,
      version: 1,
    };
    expect(blueprintCreatedOp(TNT, bp)).toEqual({
      type: 'put',
      item: { pk: 'TENANT#tnt_1', sk: 'BP#svc', entity: 'blueprint', schema_version: 1, ...bp },
      condition: { kind: 'itemNotExists' },
    });
    expect(entityCountOp(TNT, 'svc', -1, { kind: 'itemExists' })).toEqual({
      type: 'update',
      key: { pk: 'TENANT#tnt_1', sk: 'BP#svc' },
      add: { entity_count: -1 },
      condition: { kind: 'itemExists' },
    });
  });

  it('write a depends_on relation as its record (both ends indexed), uniqueness and adjacency items', () => {
    const rel = {
      id: 'rel_1',
      from_entity_id: 'ent_1',
      to_entity_id: 'ent_2',
      relation_type: 'depends_on' as const,
      created_at: 't0',
    };
    expect(newRelationOps(TNT, rel)).toEqual([
      {
        type: 'put',
        item: {
          pk: 'TENANT#tnt_1',
          sk: 'REL#rel_1',
          entity: 'relation',
          schema_version: 1,
          gsi1pk: 'ENTREL#ent_1',
          gsi1sk: 'REL#rel_1',
          gsi2pk: 'ENTREL#ent_2',
          gsi2sk: 'REL#rel_1',
          version: 1,
          ...rel,
        },
        condition: { kind: 'itemNotExists' },
      },
      {
        type: 'put',
        item: {
          pk: 'TENANT#tnt_1',
          sk: 'RELKEY#ent_1#depends_on#ent_2',
          entity: 'relation_key',
          schema_version: 1,
          relation_id: 'rel_1',
        },
        condition: { kind: 'itemNotExists' },
      },
      {
        type: 'put',
        item: {
          pk: 'TENANT#tnt_1',
          sk: 'DEP#ent_1#ent_2',
          entity: 'dependency',
          schema_version: 1,
          relation_id: 'rel_1',
          from_entity_id: 'ent_1',
          to_entity_id: 'ent_2',
        },
      },
    ]);
    expect(deleteRelationOps(TNT, rel).map((op) => op.type === 'delete' && op.key.sk)).toEqual([
      'REL#rel_1',
      'RELKEY#ent_1#depends_on#ent_2',
      'DEP#ent_1#ent_2',
    ]);
  });
});

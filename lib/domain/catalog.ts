/**
 * The catalog's rules (its front door; the files in catalog/ are private): a blueprint's field
 * definitions, an entity's field values and merge patches, its stored record and state, reserved
 * names and the depends_on cycle rule.
 */

export type { FieldDefinition } from './catalog/blueprint-fields.ts';
export {
  checkFieldDefinition,
  checkFieldDefinitions,
  FIELD_NAME,
  fieldDefinitionSchema,
  MAX_FIELDS_PER_BLUEPRINT,
  newFieldDefinitionSchema,
  sortFields,
} from './catalog/blueprint-fields.ts';
export { checkStatesChange } from './catalog/check-states-change.ts';
export { wouldCreateCycle } from './catalog/dependency-cycle.ts';
export type { FieldValues } from './catalog/entity-fields.ts';
export { applyFieldPatch, withDefaults } from './catalog/entity-fields.ts';
export type { EntityPointer, EntityRecord, EntityState } from './catalog/entity-record.ts';
export {
  entityChecksPart,
  entityPointerSchema,
  entitySchema,
  entityStateSchema,
} from './catalog/entity-record.ts';
export { isAllowedKey, RESERVED_NAME_MESSAGE, RESERVED_NAMES } from './catalog/reserved-names.ts';

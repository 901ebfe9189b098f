/**
 * The blueprint of integrations' own entities (lib/integrations/manage/own-entities.ts): made with
 * a tenant's first integration, each integration's entity in it. Configuration as code leaves it
 * and its entities out (lib/features/kinds: blueprints and entities): they are the integrations', made and removed with
 * them, so an export does not carry them and an apply with prune never deletes them.
 */
export const INTEGRATION_BLUEPRINT = 'integration';

import type { Principal } from '../../lib/domain/principal.ts';

/** The built-in tools that write: every other built-in tool is read-only. */
export const WRITING_TOOLS = [
  'create_check',
  'run_check',
  'acknowledge_incident',
  'add_incident_note',
  'create_maintenance',
  'create_page_incident',
  'update_page_incident',
  'apply_config',
  'update_check',
  'delete_check',
  'silence_check',
  'start_maintenance',
  'resolve_incident',
  'acknowledge_outside_alert',
  'resolve_outside_alert',
];

/** An agent calling the tools as an admin of `tenantId` with a key that may write. */
export const agentAdmin = (tenantId: string): Principal => ({
  tenantId,
  userId: 'usr_agent',
  keyId: 'key_agent',
  role: 'admin',
  readOnly: false,
});

// biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected freely
type Post = (path: string, body: unknown) => Promise<any>;

/** Seeds each pair's relation: the first entity depends on the second (both keys of `ids`). */
export async function dependsOn(
  post: Post,
  ids: Record<string, string>,
  pairs: readonly (readonly [string, string])[],
): Promise<void> {
  for (const [from, to] of pairs)
    await post('/v1/relations', {
      from_entity_id: ids[from],
      to_entity_id: ids[to],
      relation_type: 'depends_on',
    });
}

/** Seeds a push check named `name` of the entity (hourly, down at the first failure); answers its id. */
export async function pushCheck(post: Post, entityId: string | undefined, name: string): Promise<string> {
  return (
    await post('/v1/checks', {
      entity_id: entityId,
      check_type: 'push',
      interval_seconds: 3600,
      failure_threshold: 1,
      name,
    })
  ).id;
}

/** The manifest of the tenant's `runbooks` skill: tools that run actions. */
export const runbooks = (tools: Record<string, unknown>[]) => ({
  slug: 'runbooks',
  name: 'Runbooks',
  description: 'Operational actions',
  version: '1.0.0',
  tools,
});

import { BUILTIN_TOOLSETS } from '../../lib/features/feature-routes.ts';
import type { ApiHarness } from './api-harness.ts';

/** Every built-in tool name but find_tools (which is always listed): the tools of all six toolsets. */
export const TOOLSET_TOOL_NAMES: readonly string[] = BUILTIN_TOOLSETS.flatMap((t) =>
  t.tools.map((tool) => tool.name),
);

/**
 * Enables built-in toolsets for the tenant of `key` (every one by default) through POST
 * /v1/skills/builtin/{toolset}, as an admin does in one step; throws on anything but 200 or 201.
 */
export async function enableToolsets(
  api: Pick<ApiHarness, 'request'>,
  key: string,
  slugs: readonly string[] = BUILTIN_TOOLSETS.map((t) => t.slug),
): Promise<void> {
  for (const slug of slugs) {
    const res = await api.request('POST', `/v1/skills/builtin/${slug}`, { key });
    if (res.status !== 200 && res.status !== 201)
      throw new Error(`enabling ${slug}: ${res.status} ${res.text}`);
  }
}

/**
 * Deletes the starter skill every new tenant gets (catalog-ops), for a test whose tenant must start
 * empty (configuration documents compared object for object); throws on anything but 204.
 */
export async function withoutStarterSkill(api: Pick<ApiHarness, 'request'>, key: string): Promise<void> {
  const res = await api.request('DELETE', '/v1/skills/catalog-ops', { key });
  if (res.status !== 204) throw new Error(`deleting the starter skill: ${res.status} ${res.text}`);
}

import { type CreateSkillBody, createSkillBody } from '../skills/manifest.ts';
import type { SkillRecord } from '../skills/skill-items.ts';
import { createSkillService } from '../skills/skill-service.ts';
import { createSkillStore } from '../skills/skill-store.ts';
import { type MigrationDeps, migrationMarker, runMarkedMigration } from '../store/marked-migration.ts';

/**
 * Built-in toolsets stored by an earlier release get the current manifests (issue 75). A tenant's
 * toolset is a skill holding a copy of each tool's inputSchema (SkillService.enableToolset), and
 * calls are validated against the stored copy: without this, an upgraded data directory keeps,
 * say, get_entity's schema of the slugs only and refuses `entity_id`. A stored skill of a toolset's
 * slug whose version differs and whose tools are all that toolset's built-ins (no runbook action)
 * takes the manifest's name, description, version and tools; its enabled flag stays. The marker is
 * named by the manifests' versions, so a toolset whose version moves runs it again. The toolsets
 * are the built-ins' (lib/features/feature-routes.ts), which the caller gives.
 */
export const builtinSkillsMarker = (toolsets: readonly CreateSkillBody[]) =>
  `builtin-toolsets:${toolsets.map((t) => `${t.slug}@${t.version}`).join(',')}`;

/** True when the stored skill is a copy of an earlier version of `manifest` (tools it offers, nothing else). */
function olderCopy(stored: SkillRecord, manifest: CreateSkillBody): boolean {
  const names = new Set(manifest.tools.map((t) => t.name));
  return (
    stored.version !== manifest.version &&
    stored.tools.every((tool) => tool.action_id === undefined && names.has(tool.name))
  );
}

export async function upgradeBuiltinSkills(
  deps: MigrationDeps,
  toolsets: readonly CreateSkillBody[],
): Promise<number> {
  const store = createSkillStore(deps.table);
  // Built-in tools name no action: a manifest that did would be refused, not run.
  const skills = createSkillService({ skills: store, clock: deps.clock, actionExists: async () => false });
  return runMarkedMigration(deps, {
    marker: migrationMarker(builtinSkillsMarker(toolsets), 'skills_upgraded'),
    message: 'built-in toolsets upgraded to their current manifests',
    field: 'skills_upgraded',
    perTenant: async (tenant) => {
      let upgraded = 0;
      for (const manifest of toolsets) {
        const stored = await store.get(tenant.id, manifest.slug);
        if (!stored || !olderCopy(stored, manifest)) continue;
        const { name, description, version, tools } = createSkillBody.parse(manifest);
        await skills.update(tenant.id, manifest.slug, { name, description, version, tools });
        upgraded += 1;
      }
      return upgraded;
    },
  });
}

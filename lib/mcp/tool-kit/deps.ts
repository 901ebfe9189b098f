import type { ToolKitDeps } from '../../catalog/entities.ts';
import type { IncidentService } from '../../incidents/incident-service.ts';
import type { CreateSkillBody } from '../../skills/manifest.ts';
import type { SkillRecord } from '../../skills/skill-items.ts';
import type { BoardReads } from '../../status/board-reads.ts';

/**
 * The tool kit as lib/mcp uses it: the services of the built-ins MCP binds itself (its app views
 * and find_tools) and its prompts read. What a tool is (lib/platform/mcp-tool.ts), what it
 * answers (lib/platform/tool-answers.ts), how it names an entity (lib/catalog/entities.ts,
 * ToolKitDeps) and the board's reads and graph walk (lib/status/board-reads.ts) sit below the
 * features, which define their own tools in their folders.
 */

/**
 * The services of the built-ins MCP binds itself (the catalog's and the status board's reads,
 * which the prompts and app views share, and find_tools'): the same ones the HTTP routes use. A
 * feature's own tools are declared and bound by its mount instead (`bindTools`, each over the
 * kit and that feature's services), so their services are not here.
 */
export interface BuiltinDeps extends ToolKitDeps, BoardReads {
  /** list_incidents and the prompts: the incidents' reads. */
  incidents: Pick<IncidentService, 'list' | 'get'>;
  /** find_tools: the tenant's registered skills (enabled or not)… */
  skills: { list(tenantId: string): Promise<SkillRecord[]> };
  /** …and the built-in toolsets. */
  toolsets: readonly CreateSkillBody[];
}

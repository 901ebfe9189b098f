import type { AnyConfigKind, DocKey } from './kind.ts';
import { actionsKind } from './kinds/actions.ts';
import { blueprintsKind } from './kinds/blueprints.ts';
import { channelsKind } from './kinds/channels.ts';
import { checksKind } from './kinds/checks.ts';
import { entitiesKind } from './kinds/entities.ts';
import { escalationPoliciesKind } from './kinds/escalation_policies.ts';
import { integrationsKind } from './kinds/integrations.ts';
import { maintenanceKind } from './kinds/maintenance.ts';
import { relationsKind } from './kinds/relations.ts';
import { routesKind } from './kinds/routes.ts';
import { schedulesKind } from './kinds/schedules.ts';
import { skillsKind } from './kinds/skills.ts';
import { statusPagesKind } from './kinds/status_pages.ts';
import { teamsKind } from './kinds/teams.ts';

/**
 * Every kind of the configuration document, one file each under ./kinds/ (declared with
 * `defineKind`). Keyed by DOC_KEYS, in their order (the engine walks them so), so a kind cannot be
 * registered twice or under another list's name.
 */
export const CONFIG_KINDS: Record<DocKey, AnyConfigKind> = {
  blueprints: blueprintsKind,
  entities: entitiesKind,
  relations: relationsKind,
  channels: channelsKind,
  checks: checksKind,
  maintenance: maintenanceKind,
  status_pages: statusPagesKind,
  actions: actionsKind,
  skills: skillsKind,
  schedules: schedulesKind,
  teams: teamsKind,
  escalation_policies: escalationPoliciesKind,
  routes: routesKind,
  integrations: integrationsKind,
};

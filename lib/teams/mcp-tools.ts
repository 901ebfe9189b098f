import type { ToolKitDeps } from '../catalog/entities.ts';
import { entityRefProperties, optionalEntity } from '../catalog/entities.ts';
import { issueSentence } from '../http/requests.ts';
import { ValidationError } from '../platform/errors.ts';
import type { BuiltinTool } from '../platform/mcp-tool.ts';
import { optionalString, READS } from '../platform/mcp-tool.ts';
import { entityWords, toolResult } from '../platform/tool-answers.ts';
import { whoQuery } from './team-schemas.ts';
import type { WhoService } from './who-service.ts';

/**
 * who_is_on_call (issue 55 item 5): GET /v1/oncall for agents, by entity (its id, or its
 * blueprint and slug), team or schedule, at `at` (default now); each answer row in words with the
 * path it took (entity → team → schedule → person).
 */
export const whoIsOnCall: BuiltinTool<ToolKitDeps & { who: Pick<WhoService, 'whoIsOnCall'> }> = {
  name: 'who_is_on_call',
  offer: {
    toolset: 'on-call-ops',
    order: 10,
    version: '1.1.0',
    description:
      'Who is on call now (or at `at`) for an entity (entity_id, or blueprint_slug and entity_slug), a team (team_id) or a schedule (schedule_id), or with none of them for every team: the person per owning team, with the path taken (entity → owning team → its schedule → person), until when, and why nobody when nobody is.',
    inputSchema: {
      type: 'object',
      properties: {
        ...entityRefProperties,
        team_id: { type: 'string', maxLength: 64, description: 'The team (team_…)' },
        schedule_id: { type: 'string', maxLength: 64, description: 'The schedule (sch_…)' },
        at: { type: 'string', maxLength: 40, description: 'ISO 8601 time with a zone; default now' },
      },
      additionalProperties: false,
    },
  },
  annotations: { title: 'Who is on call', ...READS },
  handler: async (deps, caller, args) => {
    const entity = await optionalEntity(deps, caller.tenantId, args);
    const query = whoQuery.safeParse(
      {
        entity_id: entity?.id,
        team_id: optionalString(args, 'team_id'),
        schedule_id: optionalString(args, 'schedule_id'),
        at: optionalString(args, 'at'),
      },
      { error: issueSentence },
    );
    if (!query.success)
      throw new ValidationError(
        query.error.issues[0]?.message ?? 'invalid arguments',
        query.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
      );
    const answer = await deps.who.whoIsOnCall(caller.tenantId, query.data);
    const asked = answer.entity ? entityWords(answer.entity) : null;
    const rows = answer.on_call.map((row) => {
      const steps = [
        row.path.team
          ? `team "${row.path.team.name}"${row.path.ownership === 'blueprint_default' ? ' (default owner of the blueprint)' : ''}`
          : null,
        row.path.schedule ? `schedule "${row.path.schedule.name}"` : null,
      ].filter((s) => s !== null);
      const who = row.user
        ? `${row.user.name ?? row.user.email ?? 'a former member'}${row.user.email ? ` <${row.user.email}>` : ''}${row.until ? ` until ${row.until}` : ''}`
        : `nobody (${row.note ?? 'no one on call'})`;
      return `${steps.join(' → ')}: ${who}`;
    });
    const head = `On call${asked ? ` for ${asked}` : ''} at ${answer.at}`;
    const summary =
      rows.length > 0 ? `${head}: ${rows.join('; ')}.` : `${head}: nobody. ${answer.note ?? ''}`.trim();
    return toolResult(summary, answer);
  },
};

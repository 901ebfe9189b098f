import { defineRoute } from '../http/define-route.ts';
import { type AuthedRoute, created, noContent, ok } from '../http/types.ts';
import { policyBody, policyListSchema, policyParams, publicPolicySchema } from './policy-schemas.ts';
import type { PolicyService } from './policy-service.ts';

const tag = 'On-call';

/**
 * /v1/escalation-policies (docs/on-call.md "Escalation policies"): everyone reads them; admins
 * create, replace and delete them.
 */
export function policyRoutes(deps: { policies: PolicyService }): AuthedRoute[] {
  const { policies } = deps;
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/escalation-policies',
      auth: 'key',
      operationId: 'listEscalationPolicies',
      tag,
      summary: 'The tenant’s escalation policies, oldest first',
      schemas: { responses: { 200: policyListSchema } },
      handler: async ({ principal }) => ok({ escalation_policies: await policies.list(principal.tenantId) }),
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/escalation-policies',
      auth: 'key',
      role: 'admin',
      operationId: 'createEscalationPolicy',
      tag,
      summary:
        'Create an escalation policy: ordered steps of targets, each waiting its delay; a repeat count',
      schemas: { body: policyBody, responses: { 201: publicPolicySchema }, errors: ['LIMIT_EXCEEDED'] },
      handler: async ({ principal, body }) => created(await policies.create(principal.tenantId, body)),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/escalation-policies/{id}',
      auth: 'key',
      operationId: 'getEscalationPolicy',
      tag,
      summary: 'One escalation policy',
      schemas: { params: policyParams, responses: { 200: publicPolicySchema } },
      handler: async ({ principal, params }) => ok(await policies.get(principal.tenantId, params.id)),
    }),
    defineRoute({
      method: 'PUT',
      path: '/v1/escalation-policies/{id}',
      auth: 'key',
      role: 'admin',
      operationId: 'replaceEscalationPolicy',
      tag,
      summary: 'Replace an escalation policy (climbs under way follow the new steps from their next one)',
      schemas: {
        params: policyParams,
        body: policyBody,
        responses: { 200: publicPolicySchema },
        errors: ['CONFLICT'],
      },
      handler: async ({ principal, params, body }) =>
        ok(await policies.replace(principal.tenantId, params.id, body)),
    }),
    defineRoute({
      method: 'DELETE',
      path: '/v1/escalation-policies/{id}',
      auth: 'key',
      role: 'admin',
      operationId: 'deleteEscalationPolicy',
      tag,
      summary: 'Delete an escalation policy no route or team uses (409 names those that do)',
      schemas: { params: policyParams, responses: { 204: null }, errors: ['CONFLICT'] },
      handler: async ({ principal, params }) => {
        await policies.remove(principal.tenantId, params.id);
        return noContent();
      },
    }),
  ];
}

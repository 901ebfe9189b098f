import * as z from 'zod';
import { defineRoute } from '../../http/define-route.ts';
import { idSchema } from '../../http/route-schemas.ts';
import { type AuthedRoute, ok } from '../../http/types.ts';
import type { Clock } from '../../platform/clock.ts';
import { NotFoundError } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { ActionStore } from '../items/action-store.ts';
import type { ActionRunner } from '../items/ports.ts';
import { TEMPLATE_VAR_NAME } from '../runs/template.ts';
import { publicExecution, publicExecutionSchema } from './responses.ts';

/** Bounds of a manual run's `vars`: enough for any pipeline's inputs, small enough to store. */
export const RUN_VARS_LIMITS = { count: 50, valueBytes: 2048 } as const;

const varsSchema = z
  .record(
    z
      .string()
      .regex(
        TEMPLATE_VAR_NAME,
        'Name a variable with lower-case letters, digits and _, not starting with a digit.',
      ),
    z
      .string()
      .refine((v) => Buffer.byteLength(v, 'utf8') <= RUN_VARS_LIMITS.valueBytes, {
        message: `Use at most ${RUN_VARS_LIMITS.valueBytes} bytes.`,
      })
      .meta({ maxLength: RUN_VARS_LIMITS.valueBytes }),
  )
  .refine((vars) => Object.keys(vars).length <= RUN_VARS_LIMITS.count, {
    message: `Use at most ${RUN_VARS_LIMITS.count} variables.`,
  })
  .meta({
    maxProperties: RUN_VARS_LIMITS.count,
    description: `Template variables that override the built-in ones for this run: at most ${RUN_VARS_LIMITS.count}, each at most ${RUN_VARS_LIMITS.valueBytes} bytes (UTF-8)`,
  });

const runBodySchema = z.strictObject({ vars: varsSchema.optional() }).optional();

/** POST /v1/actions/{id}/run: members and admins run an action now; the answer is the execution. */
export function actionRunRoutes(deps: {
  actions: Pick<ActionStore, 'get'>;
  runner: ActionRunner;
  clock: Clock;
}): AuthedRoute[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/v1/actions/{id}/run',
      auth: 'key',
      operationId: 'runAction',
      tag: 'Actions',
      summary:
        'Run the action now, synchronously: one outbound call (no redirects followed); a URL the SSRF guard denies is recorded as a blocked execution',
      schemas: {
        params: z.object({ id: idSchema('act') }),
        body: runBodySchema,
        responses: { 200: publicExecutionSchema },
        errors: ['NOT_FOUND'],
      },
      handler: async ({ principal, params, body }) => {
        const action = await deps.actions.get(principal.tenantId, params.id);
        if (!action) throw new NotFoundError('action');
        const execution = await deps.runner.run({
          action,
          trigger: 'manual',
          executionId: newId('exe', deps.clock.now()),
          ...(body?.vars ? { vars: body.vars } : {}),
        });
        return ok(publicExecution(execution));
      },
    }),
  ];
}

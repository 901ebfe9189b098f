import * as z from 'zod';
import { defineRoute } from '../../http/define-route.ts';
import { readRoute } from '../../http/handlers.ts';
import { type AuthedRoute, ok } from '../../http/types.ts';
import type { Table } from '../../store/table.ts';
import {
  DEFAULT_FOLD_PER_MINUTE,
  MAX_FOLD_PER_MINUTE,
  MIN_FOLD_PER_MINUTE,
  readAlertSettings,
  writeAlertSettings,
} from './fold-items.ts';

/**
 * `GET/PUT /v1/settings/alerting`: the tenant's alerting settings (docs/notifications.md "Grouping
 * and the storm fold"), today `alert_fold_per_minute`: how many alerts one channel is sent alone
 * in any minute before the rest fold into digests. Anyone may read it; admins change it.
 */

const tag = 'Notifications';

const foldField = z
  .int()
  .min(MIN_FOLD_PER_MINUTE)
  .max(MAX_FOLD_PER_MINUTE)
  .meta({
    description: `Alerts one channel is sent alone in any minute; past it they fold into one digest per group per minute (default ${DEFAULT_FOLD_PER_MINUTE})`,
  });

const alertSettingsBody = z
  .strictObject({ alert_fold_per_minute: foldField })
  .meta({ id: 'AlertSettingsInput' });
const publicAlertSettingsSchema = z
  .strictObject({ alert_fold_per_minute: z.number().int() })
  .meta({ id: 'AlertSettings' });

export function alertSettingsRoutes(deps: { table: Table }): AuthedRoute[] {
  return [
    readRoute({
      path: '/v1/settings/alerting',
      operationId: 'getAlertSettings',
      tag,
      summary: 'The tenant’s alerting settings: {alert_fold_per_minute}',
      response: publicAlertSettingsSchema,
      read: (tenantId) => readAlertSettings(deps.table, tenantId),
    }),
    defineRoute({
      method: 'PUT',
      path: '/v1/settings/alerting',
      auth: 'key',
      role: 'admin',
      operationId: 'putAlertSettings',
      tag,
      summary: 'Change the tenant’s alerting settings (admins)',
      schemas: { body: alertSettingsBody, responses: { 200: publicAlertSettingsSchema } },
      handler: async ({ principal, body }) => {
        await writeAlertSettings(deps.table, principal.tenantId, body);
        return ok(body);
      },
    }),
  ];
}

import * as z from 'zod';
import type { Principal } from '../domain/principal.ts';
import { defineRoute } from '../http/define-route.ts';
import { linkPageRoutes } from '../http/handlers.ts';
import { ok, type Route } from '../http/types.ts';
import { NotFoundError, ReadOnlyError } from '../platform/errors.ts';
import type { CursorSeal } from '../store/cursor-seal.ts';
import { type ReportPreferences, reportPreferenceSchema } from './report-preference.ts';
import { openUnsubscribeToken } from './unsubscribe-link.ts';
import { invalidUnsubscribePage, unsubscribedPage, unsubscribeFormPage } from './unsubscribe-page.ts';

/**
 * The caller's own report preference (GET and PUT /v1/me/report; a viewer signed in sets theirs,
 * a read-only API key may not) and the keyless unsubscribe link of the e-mails (limited per
 * source address, as the e-mail confirmation links).
 */

const tag = 'Account';
const tokenParams = z.object({
  token: z.string().max(400).meta({ description: 'The sealed token of the report e-mail’s link' }),
});

function own(principal: Principal): Principal {
  if (principal.readOnly && principal.credential !== 'session') throw new ReadOnlyError();
  return principal;
}

export function reportRoutes(deps: { preferences: ReportPreferences; cursors: CursorSeal }): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/me/report',
      auth: 'key',
      operationId: 'getReportPreference',
      tag,
      summary: 'Your report e-mail: off, weekly or monthly, and the time zone its period starts in',
      schemas: { responses: { 200: reportPreferenceSchema } },
      handler: async ({ principal }) => ok(await deps.preferences.get(principal.tenantId, principal.userId)),
    }),
    defineRoute({
      method: 'PUT',
      path: '/v1/me/report',
      auth: 'key',
      readsOnly: true,
      operationId: 'setReportPreference',
      tag,
      summary:
        'Set your report e-mail (weekly or monthly uptime, incidents and slowest checks) or turn it off',
      schemas: {
        body: reportPreferenceSchema,
        responses: { 200: reportPreferenceSchema },
        errors: ['READ_ONLY'],
      },
      handler: async ({ principal, body }) => {
        const { tenantId, userId } = own(principal);
        if (!(await deps.preferences.set(tenantId, userId, body))) throw new NotFoundError('user');
        return { ...ok(body), audit: { action: 'report.update', target: { type: 'user', id: userId } } };
      },
    }),
    ...linkPageRoutes({
      path: '/v1/reports/unsubscribe/{token}',
      params: tokenParams,
      tag,
      invalid: { description: 'The invalid-link page (HTML)', page: invalidUnsubscribePage },
      show: {
        operationId: 'getReportUnsubscribe',
        summary: 'The page of a report e-mail’s unsubscribe link (HTML, no key): a Stop button',
        page: async ({ token }) =>
          (await openUnsubscribeToken(deps.cursors, token)) ? unsubscribeFormPage() : undefined,
      },
      act: {
        operationId: 'unsubscribeReport',
        summary:
          'Turn the link’s person’s report e-mails off (the page’s button or RFC 8058 one-click; no key)',
        page: async ({ token }) => {
          const person = await openUnsubscribeToken(deps.cursors, token);
          if (!person) return undefined;
          const current = await deps.preferences.get(person.tenantId, person.userId).catch(() => undefined);
          if (!current) return undefined;
          if (current.report !== 'off')
            await deps.preferences.set(person.tenantId, person.userId, { ...current, report: 'off' });
          return unsubscribedPage();
        },
      },
    }),
  ];
}

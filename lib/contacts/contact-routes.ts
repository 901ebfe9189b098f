import * as z from 'zod';
import { defineRoute } from '../http/define-route.ts';
import { type AuthedRoute, created, noContent, ok } from '../http/types.ts';
import {
  contactMethodListSchema,
  publicContactMethodSchema,
  publicRulesSchema,
} from './contact-responses.ts';
import { contactMethodBody, contactMethodParams, rulesBody, verifyBody } from './contact-schemas.ts';
import type { ContactService } from './contact-service.ts';

const tag = 'On-call';
/** Names the person, not the path, as what changed (the audit log). */
const onUser = (userId: string) => ({ target: { type: 'user', id: userId } });

/**
 * /v1/me/contact-methods and /v1/me/notification-rules (docs/on-call.md): a person's own, read and
 * changed by that person only (another person's ids are 404, admins included). The writes are
 * `readsOnly` for the router so that a viewer signed in manages their own; a read-only API key is
 * refused by the service (403 READ_ONLY), as for /v1/me/report.
 */
export function contactRoutes(deps: { contacts: ContactService }): AuthedRoute[] {
  const { contacts } = deps;
  const path = '/v1/me/contact-methods';
  return [
    defineRoute({
      method: 'GET',
      path,
      auth: 'key',
      operationId: 'listContactMethods',
      tag,
      summary: 'Your contact methods, oldest first',
      schemas: { responses: { 200: contactMethodListSchema } },
      handler: async ({ principal }) => ok({ contact_methods: await contacts.list(principal) }),
    }),
    defineRoute({
      method: 'POST',
      path,
      auth: 'key',
      readsOnly: true,
      operationId: 'createContactMethod',
      tag,
      summary:
        'Add a contact method: unverified until the 6-digit code it is sent comes back (console: verified at once)',
      schemas: {
        body: contactMethodBody,
        responses: { 201: publicContactMethodSchema },
        errors: ['READ_ONLY', 'CONFLICT', 'LIMIT_EXCEEDED'],
      },
      handler: async ({ principal, body }) => {
        const made = await contacts.create(principal, body);
        return { ...created(made), audit: onUser(principal.userId) };
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${path}/{id}`,
      auth: 'key',
      operationId: 'getContactMethod',
      tag,
      summary: 'One of your contact methods',
      schemas: { params: contactMethodParams, responses: { 200: publicContactMethodSchema } },
      handler: async ({ principal, params }) => ok(await contacts.get(principal, params.id)),
    }),
    defineRoute({
      method: 'POST',
      path: `${path}/{id}/verify`,
      auth: 'key',
      readsOnly: true,
      operationId: 'verifyContactMethod',
      tag,
      summary: 'Verify a contact method with the code it received (single-use, 10 minutes, 5 tries)',
      schemas: {
        params: contactMethodParams,
        body: verifyBody,
        responses: { 200: publicContactMethodSchema },
        errors: ['READ_ONLY', 'CONFLICT'],
      },
      handler: async ({ principal, params, body }) => ({
        ...ok(await contacts.verify(principal, params.id, body.code)),
        audit: onUser(principal.userId),
      }),
    }),
    defineRoute({
      method: 'POST',
      path: `${path}/{id}/resend`,
      auth: 'key',
      readsOnly: true,
      operationId: 'resendContactMethodCode',
      tag,
      summary: 'Send a new code (the previous one stops working); one a minute, five an hour',
      schemas: {
        params: contactMethodParams,
        body: z.strictObject({}).optional(),
        responses: { 200: publicContactMethodSchema },
        errors: ['READ_ONLY', 'CONFLICT', 'RATE_LIMITED'],
      },
      handler: async ({ principal, params }) => ({
        ...ok(await contacts.resend(principal, params.id)),
        audit: onUser(principal.userId),
      }),
    }),
    defineRoute({
      method: 'DELETE',
      path: `${path}/{id}`,
      auth: 'key',
      readsOnly: true,
      operationId: 'deleteContactMethod',
      tag,
      summary: 'Delete a contact method, and the notification rules that use it',
      schemas: { params: contactMethodParams, responses: { 204: null }, errors: ['READ_ONLY'] },
      handler: async ({ principal, params }) => {
        await contacts.remove(principal, params.id);
        return { ...noContent(), audit: onUser(principal.userId) };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/me/notification-rules',
      auth: 'key',
      operationId: 'getNotificationRules',
      tag,
      summary: 'Your notification rules: which contact method, how long after a page starts',
      schemas: { responses: { 200: publicRulesSchema } },
      handler: async ({ principal }) => ok(await contacts.rules(principal)),
    }),
    defineRoute({
      method: 'PUT',
      path: '/v1/me/notification-rules',
      auth: 'key',
      readsOnly: true,
      operationId: 'setNotificationRules',
      tag,
      summary: 'Replace your notification rules (each on a verified contact method of yours)',
      schemas: { body: rulesBody, responses: { 200: publicRulesSchema }, errors: ['READ_ONLY', 'CONFLICT'] },
      handler: async ({ principal, body }) => ({
        ...ok(await contacts.setRules(principal, body)),
        audit: onUser(principal.userId),
      }),
    }),
  ];
}

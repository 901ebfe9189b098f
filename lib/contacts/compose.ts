import type { AuthedRoute } from '../http/types.ts';
import { contactRoutes } from './contact-routes.ts';
import { createContactService } from './contact-service.ts';
import { type ContactReachDeps, contactSendDeps } from './reach.ts';

/** SMTP locally, SES in the cloud (undefined: e-mail contact methods cannot be added); SNS in the cloud. */
export type ContactsDeps = ContactReachDeps;

/** People's contact methods and notification rules (issue 55 item 2): the routes over the table. */
export function composeContacts(deps: ContactsDeps): { routes: AuthedRoute[] } {
  const { table, clock } = deps;
  const contacts = createContactService({
    table,
    clock,
    cursors: deps.cursors,
    send: contactSendDeps(deps),
  });
  return { routes: contactRoutes({ contacts }) };
}

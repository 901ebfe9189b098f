import { defineMount } from '../platform/feature.ts';
import { type ContactsDeps, composeContacts } from './compose.ts';

/** People's contact methods and notification rules. */
export const contactsMount = defineMount({
  name: 'contacts',
  routes: (deps: ContactsDeps) => composeContacts(deps).routes,
});

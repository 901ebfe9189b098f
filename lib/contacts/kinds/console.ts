import { definePersonUse } from '../../providers/person-use.ts';

/**
 * A push to the console: the person's own signed-in console shows the page, so it has no address
 * and is verified when added (adding it is the person's own act; nothing leaves the process).
 */
export const consoleContact = definePersonUse({
  label: 'Console',
  address: null,
  verifiedWhenAdded: true,
  missing: () => undefined,
  send: async () => ({ ok: true }),
});

/** Keys of the tenancy items (tenant, user, API key, invitation); see docs/data-model.md. */

import { itemType } from '../store/item-type.ts';
import { tenantPk } from '../store/partitions.ts';

export const tenancyKeys = {
  tenant: (tenantId: string) => ({ pk: tenantPk(tenantId), sk: '#TENANT' }),
  user: (tenantId: string, userId: string) => ({ pk: tenantPk(tenantId), sk: `USER#${userId}` }),
  userEmail: (tenantId: string, email: string) => ({
    pk: tenantPk(tenantId),
    sk: `USEREMAIL#${email.toLowerCase()}`,
  }),
  apiKey: (tenantId: string, keyId: string) => ({ pk: tenantPk(tenantId), sk: `KEY#${keyId}` }),
  keyHash: (hash: string) => ({ pk: `KEYHASH#${hash}`, sk: '#KEYHASH' }),
  invitation: (tenantId: string, invitationId: string) => ({
    pk: tenantPk(tenantId),
    sk: `INV#${invitationId}`,
  }),
  invitationEmail: (tenantId: string, email: string) => ({
    pk: tenantPk(tenantId),
    sk: `INVEMAIL#${email.toLowerCase()}`,
  }),
  invitationToken: (hash: string) => ({ pk: `INVTOKEN#${hash}`, sk: '#INVTOKEN' }),
};

export const TENANTS_INDEX_PK = 'TENANTS';

/** The tenancy item types: each item's `entity` and the version of its stored shape. */
export const tenancyTypes = {
  tenant: itemType('tenant'),
  user: itemType('user'),
  userEmail: itemType('user_email'),
  apiKey: itemType('api_key'),
  keyHash: itemType('api_key_hash'),
  invitation: itemType('invitation'),
  invitationEmail: itemType('invitation_email'),
  invitationToken: itemType('invitation_token'),
};

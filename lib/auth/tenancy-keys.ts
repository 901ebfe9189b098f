/** Keys of the tenancy items (tenant, user, API key, invitation); see docs/data-model.md. */

export const tenantPk = (tenantId: string) => `TENANT#${tenantId}`;

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

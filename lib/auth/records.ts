/**
 * lib/auth's records as other features read and write them (its front door; the files behind it are
 * private): a tenant (its plan limits and catalog, a member joining it), its users, a pending
 * invitation (an SSO sign-in accepts it) and an API key (the audit log names its owner).
 */
export { getApiKey } from './keys/api-key-items.ts';
export { getInvitation, getInvitationEmail, invitationAcceptedOps } from './team/invitation-items.ts';
export {
  DEFAULT_LIMITS,
  getTenant,
  getTenantCatalog,
  listTenants,
  memberJoinedOp,
  type PlanLimits,
  type Tenant,
  type TenantCatalog,
  tenantCatalogOp,
} from './tenants/tenant-items.ts';
export { getUser, listUsers, type User, userCreatedOps, userReportOp } from './tenants/user-items.ts';

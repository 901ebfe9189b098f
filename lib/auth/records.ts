import { z } from 'zod';

/** Stored shapes of tenancy items, parsed on every read. */

export const DEFAULT_LIMITS = {
  blueprint_limit: 50,
  entity_limit_per_bp: 1000,
  check_limit_per_entity: 20,
  retention_days: 30,
} as const;

export const limitsSchema = z.object({
  blueprint_limit: z.number().int().min(0),
  entity_limit_per_bp: z.number().int().min(0),
  check_limit_per_entity: z.number().int().min(0),
  retention_days: z.number().int().min(1),
});
export type PlanLimits = z.infer<typeof limitsSchema>;

export const tenantSchema = limitsSchema.extend({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  disabled: z.boolean(),
  admin_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Tenant = z.infer<typeof tenantSchema>;

export const userSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.enum(['admin', 'member']),
  created_at: z.string(),
  updated_at: z.string(),
  /**
   * Added to by every key created for the user (lib/auth/key-store.ts keyOwnerOp): a member removal
   * that counted the user's keys fails when one was created meanwhile, and tries again.
   */
  key_serial: z.number().int().optional(),
});
export type User = z.infer<typeof userSchema>;

export const apiKeySchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  user_id: z.string(),
  label: z.string(),
  is_read_only: z.boolean(),
  prefix: z.string(),
  key_hash: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type ApiKeyRecord = z.infer<typeof apiKeySchema>;

export const keyHashSchema = z.object({
  key_hash: z.string(),
  tenant_id: z.string(),
  user_id: z.string(),
  key_id: z.string(),
  is_read_only: z.boolean(),
});

/** The public view of a key: never the hash, never the raw key. */
export function publicKey(key: ApiKeyRecord) {
  return {
    id: key.id,
    label: key.label,
    is_read_only: key.is_read_only,
    prefix: key.prefix,
    user_id: key.user_id,
    created_at: key.created_at,
    last_used_at: key.last_used_at,
  };
}

/** A pending team invitation; only the SHA-256 hash of its token is stored. */
export const invitationSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  email: z.string(),
  role: z.enum(['admin', 'member']),
  token_hash: z.string(),
  invited_by: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
});
export type Invitation = z.infer<typeof invitationSchema>;

/** The token lookup item: hash -> invitation. */
export const invitationTokenSchema = z.object({
  token_hash: z.string(),
  tenant_id: z.string(),
  invitation_id: z.string(),
  expires_at: z.string(),
});
export type InvitationToken = z.infer<typeof invitationTokenSchema>;

/** The per-tenant uniqueness item of a pending invitation's e-mail. */
export const invitationEmailSchema = z.object({
  invitation_id: z.string(),
  expires_at: z.string(),
});

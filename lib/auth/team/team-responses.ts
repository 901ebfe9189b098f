import * as z from 'zod';
import { idSchema, timestampSchema } from '../../http/route-schemas.ts';
import { rawKey } from '../keys/responses.ts';
import { userSchema } from '../tenants/user-items.ts';
import { invitationSchema } from './invitation-items.ts';

/** Response bodies of the team routes (/v1/settings/users); a raw key or token only where created. */

/** An active member as activeMember returns it. */
const activeMemberSchema = z
  .strictObject({
    ...userSchema.pick({ email: true, name: true, role: true }).shape,
    id: idSchema('usr'),
    status: z.literal('active'),
    created_at: timestampSchema,
  })
  .meta({ id: 'TeamMember' });

/** A pending invitation as pendingInvitation returns it. */
const pendingInvitationSchema = z
  .strictObject({
    ...invitationSchema.pick({ email: true, role: true }).shape,
    id: idSchema('inv'),
    status: z.literal('pending'),
    created_at: timestampSchema,
    expires_at: timestampSchema,
  })
  .meta({ id: 'Invitation' });

/** GET /v1/settings/users: members first, then pending invitations. */
export const teamListSchema = z.array(
  z.discriminatedUnion('status', [activeMemberSchema, pendingInvitationSchema]),
);

/** POST /v1/settings/users/invite. */
export const createdInvitationSchema = z.strictObject({
  ...pendingInvitationSchema.shape,
  token: z.string().meta({ description: 'The invitation token: shown only in this response' }),
});

/** POST /v1/settings/users/accept. */
export const acceptedSchema = z.strictObject({
  user: activeMemberSchema,
  key: rawKey,
  key_id: idSchema('key'),
  tenant_id: idSchema('tnt'),
});

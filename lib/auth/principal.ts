/** What an API key's user may do in its team: admins also manage members and keys. */
export type Role = 'admin' | 'member';

/** Who is calling: resolved from the API key on every request. */
export interface Principal {
  tenantId: string;
  userId: string;
  keyId: string;
  role: Role;
  readOnly: boolean;
}

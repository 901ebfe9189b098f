/**
 * Email's transport port, the face of lib/providers/email.ts for the compositions: they
 * pick a transport (smtp-transport.ts locally, ses-transport.ts in the cloud) and hand it over.
 */
export type { EmailTransport, OutgoingEmail } from '../providers/email.ts';
/** The tenant's daily email quota, which every email Vigil sends for a tenant counts against. */
export { spendEmailQuota } from './email/email-recipients.ts';

/**
 * Email's transport port, the face of lib/notify/channels/email.ts for the compositions: they
 * pick a transport (smtp-transport.ts locally, ses-transport.ts in the cloud) and hand it over.
 */
export type { EmailTransport } from './channels/email.ts';

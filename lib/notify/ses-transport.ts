/**
 * The cloud's email transport (Amazon SES v2): its own face, so only the compositions that send
 * by SES load the SES client.
 */
export { createSesTransport } from './channels/email-ses.ts';

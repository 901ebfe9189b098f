/**
 * The cloud's email transport (Amazon SES v2): its own face, so only the compositions that send
 * by SES load the SES client.
 */
export { createSesTransport, type SesTransportOptions, sesFailureText } from './channels/email-ses.ts';

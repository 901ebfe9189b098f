/**
 * The local runtime's email transport (SMTP through nodemailer, VIGIL_SMTP_URL): its own face, so
 * only the compositions that send by SMTP load nodemailer.
 */
export { createSmtpTransport } from './channels/email-smtp.ts';

/**
 * SMS's transport port and the cloud's Amazon SNS transport, the face of
 * lib/notify/channels/sms-sns.ts for the compositions: only those that send by SNS load its client.
 */
export type { SmsTransport } from './channels/definition.ts';
export { createSnsSmsTransport } from './channels/sms-sns.ts';

import type { Resolve } from '../../egress/egress-guard.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Runtime } from '../../platform/config.ts';
import type { ShowDeliveries } from '../deliveries/delivery-responses.ts';
import type { EmailRecipients } from '../email/email-recipients.ts';

/** What a service that creates, checks and shows channels needs (a check's own ones and the tenant's alike). */
export interface ChannelSetupDeps {
  /** Delivery records as the API shows them, named (delivery-responses.ts). */
  showDeliveries: ShowDeliveries;
  clock: Clock;
  /** CIDRs the SSRF guard lets channel URLs reach (VIGIL_EGRESS_ALLOW). */
  egressAllow: readonly string[];
  /** Which runtime's setting a refused channel URL names; local by default. */
  runtime?: Runtime;
  /** VIGIL_NATS_PREFIX: nats channels show the full subject they publish to. */
  natsPrefix: string;
  /** Name resolution for the SSRF check at create (tests: loopback receivers); default the system's. */
  resolve?: Resolve | undefined;
  /** Email recipients: confirmation links on create and update, their states in views. */
  recipients: Pick<EmailRecipients, 'statesFor' | 'requestConfirmations'>;
}

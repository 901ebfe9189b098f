import type { EmailSetup } from '../../providers/ports.ts';
import type { ProviderHttp } from '../../providers/provider-post.ts';
import type { SendOutcome } from '../items/ports.ts';

/**
 * The outbound paths a channel definition's senders are given (definition.ts ChannelSendDeps),
 * in one file that both the definition and the senders (http-post.ts, nats.ts) import,
 * so no file of channels/ imports back from one that imports it.
 */

/** What email channels send with: the deployment's transport and sender, and the console's URL. */
export interface EmailDeps extends EmailSetup {
  publicUrl?: string | undefined;
}

/** How URL channels reach the network: the providers' one guarded path's settings. */
export type HttpPostDeps = ProviderHttp;

/** Publishes bytes to a subject and waits for the server to have them. */
export interface NatsPublisher {
  publish(subject: string, data: Uint8Array): Promise<SendOutcome>;
  /** The server's max_payload (bytes), once connected; undefined when unknown. */
  maxPayload?(): Promise<number | undefined>;
  close(): Promise<void>;
}

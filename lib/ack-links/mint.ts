import { type Clock, isoTime } from '../platform/clock.ts';
import type { Config } from '../platform/config.ts';
import type { Table } from '../store/table.ts';
import { ackLinkCreatedOp } from './ack-link-items.ts';
import { newAckToken } from './ack-link-token.ts';

/** How long an acknowledgement link works (DECISIONS.md "On-call (wave 5)"). */
export const ACK_LINK_TTL_MS = 24 * 3_600_000;

/** What minting a link needs: the table, the clock, and the public URL the links are absolute on. */
export interface MintDeps {
  table: Table;
  clock: Clock;
  config: Pick<Config, 'publicUrl'>;
}

/**
 * The links a page to a person carries. Only `acknowledge`: resolving by hand is done where the
 * entity's state is in view (the console, the API), not from a message a link scanner may open
 * (docs/on-call.md "Acknowledge from the message").
 */
export interface AckLinks {
  acknowledge: string;
}

/**
 * Mints a single-use link that acknowledges `incidentId` as `userId` (24 h; its token stored only
 * as its SHA-256): `<VIGIL_PUBLIC_URL>/a/<token>`. Undefined when VIGIL_PUBLIC_URL is not set
 * (no absolute URL can be made): nothing is stored then.
 */
export async function mintAckLinks(
  deps: MintDeps,
  target: { tenantId: string; incidentId: string; userId: string },
): Promise<AckLinks | undefined> {
  const base = deps.config.publicUrl;
  if (!base) return undefined;
  const { token, hash } = newAckToken();
  const now = deps.clock.now();
  await deps.table.transact([
    ackLinkCreatedOp({
      token_hash: hash,
      tenant_id: target.tenantId,
      incident_id: target.incidentId,
      user_id: target.userId,
      state: 'live',
      created_at: isoTime(now),
      expires_at: isoTime(now + ACK_LINK_TTL_MS),
      used_at: null,
    }),
  ]);
  return { acknowledge: `${base}/a/${token}` };
}

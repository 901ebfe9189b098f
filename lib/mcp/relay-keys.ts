import { itemType } from '../store/item-type.ts';

/**
 * Keys of the legacy SSE relay (docs/data-model.md): a session lives in a partition of its own
 * (`MCPSESSION#<id>`) with its pending messages beside it, so the stream reads them with one
 * consistent query in order. Both expire by `ttl`; readers also treat an expired item as gone.
 */

export const MCP_MESSAGE_PREFIX = 'MSG#';

const sessionPk = (sessionId: string) => `MCPSESSION#${sessionId}`;

export const relayKeys = {
  session: (sessionId: string) => ({ pk: sessionPk(sessionId), sk: 'SESSION' }),
  /** Zero-padded so the sort key orders messages as they were queued. */
  message: (sessionId: string, seq: number) => ({
    pk: sessionPk(sessionId),
    sk: `${MCP_MESSAGE_PREFIX}${String(seq).padStart(12, '0')}`,
  }),
  messages: (sessionId: string) => sessionPk(sessionId),
};

/** The relay's item types. */
export const relayTypes = {
  session: itemType('mcp_session'),
  message: itemType('mcp_message'),
};

import { REDACTED } from '../../domain/redaction.ts';
import { ValidationError } from '../../platform/errors.ts';

/**
 * A gRPC check's metadata values are secrets (an authorization token): written only. Responses
 * show each value as `********`; an update that sends `********` back keeps the stored value, as
 * long as the metadata still goes to the server it was given for (the same host and port, as http
 * header values follow their request); a key left out is removed.
 */

interface MetadataConfig {
  host: string;
  port: number;
  metadata?: Record<string, string> | undefined;
}

/** The config as shown: metadata values redacted, keys kept (so a client sees what is set). */
export function presentMetadata<C extends MetadataConfig>(config: C): C {
  if (!config.metadata) return config;
  return {
    ...config,
    metadata: Object.fromEntries(Object.keys(config.metadata).map((key) => [key, REDACTED])),
  };
}

/** An incoming config with each `********` metadata value replaced by the stored one. */
export function keepMetadata(
  incoming: Record<string, unknown>,
  stored: MetadataConfig | undefined,
): Record<string, unknown> {
  const metadata = incoming.metadata;
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) return incoming;
  // Stored values go only to the server they were given for.
  const moved =
    stored === undefined ||
    (incoming.host !== undefined && incoming.host !== stored.host) ||
    (incoming.port !== undefined && incoming.port !== stored.port);
  const kept = moved ? {} : (stored.metadata ?? {});
  const keep = (key: string): string => {
    if (Object.hasOwn(kept, key) && kept[key] !== undefined) return kept[key];
    throw ValidationError.field(
      `config.metadata.${key}`,
      stored === undefined
        ? `${REDACTED} stands for a stored value and this check has none: give the value.`
        : moved
          ? `${REDACTED} cannot keep a stored value when host or port changes: stored values are sent only to the server they were given for; give the value again.`
          : `${REDACTED} stands for a stored value and this key has none: give the value.`,
    );
  };
  return {
    ...incoming,
    metadata: Object.fromEntries(
      Object.entries(metadata).map(([key, value]) => [key, value === REDACTED ? keep(key) : value]),
    ),
  };
}

import { isRecovery, type StateChangeEvent } from '../../domain/states.ts';
import type { DeliveryKind } from './delivery-items.ts';

/**
 * What a message is (DECISIONS.md "Alert model (wave 4)", issue 35 item 6): the `kind` every
 * payload carries, the webhook/NATS JSON field and a word in every channel's text. A delivery
 * record's kind says why it was made; an `alert` record about a change to up out of down or
 * degraded is told as a `recovery`. Kinds of other record types (a digest, a flapping notice)
 * extend the union and the switch below.
 */

const PAYLOAD_KINDS = [
  'alert',
  'recovery',
  'repeat',
  'escalation',
  'digest',
  'flapping',
  'test',
  'acknowledge',
  'also_failing',
] as const;
export type PayloadKind = (typeof PAYLOAD_KINDS)[number];

/** The payload kind of a delivery record of `kind` carrying `event`. */
export function payloadKindOf(
  kind: DeliveryKind,
  event: Pick<StateChangeEvent, 'from_state' | 'to_state'>,
): PayloadKind {
  switch (kind) {
    case 'alert':
      return isRecovery(event) ? 'recovery' : 'alert';
    case 'repeat':
    case 'escalation':
    case 'digest':
    case 'flapping':
    case 'test':
    case 'acknowledge':
    case 'also_failing':
      return kind;
  }
}

/** "45 s", "25 min", "2 h 5 min", "3 d 4 h": a duration for humans, whole units only. */
export function humanDuration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 60) return `${s} s`;
  const minutes = Math.floor(s / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? `${days} d` : `${days} d ${hours % 24} h`;
}

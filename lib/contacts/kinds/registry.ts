import type { ContactKind } from '../contact-items.ts';
import { consoleContact } from './console.ts';
import type { ContactKindDefinition } from './definition.ts';
import { emailContact } from './email.ts';
import { ntfyContact } from './ntfy.ts';
import { pushoverContact } from './pushover.ts';
import { smsContact } from './sms.ts';
import { telegramContact } from './telegram.ts';
import { voiceContact } from './voice.ts';

/** Every kind of contact method, by its name (the API document's order). */
export const CONTACT_KIND_DEFINITIONS = {
  email: emailContact,
  sms: smsContact,
  voice: voiceContact,
  pushover: pushoverContact,
  telegram: telegramContact,
  ntfy: ntfyContact,
  console: consoleContact,
} satisfies Record<ContactKind, ContactKindDefinition>;

export function contactKind(kind: ContactKind): ContactKindDefinition {
  return CONTACT_KIND_DEFINITIONS[kind];
}

import type { Schemas } from '../api/client';

export type Kind = Schemas['ContactMethod']['kind'];

interface KindWords {
  label: string;
  /** The address field: its label, input type and hint; absent for the console's own kind. */
  address?: { label: string; type: string; hint: string };
}

/**
 * The console's one table of contact method kinds (the API's registry is lib/contacts/kinds/):
 * each kind's words and the shape of its address. Keyed by the API's kinds, so a kind the API
 * adds is a type error here until it is described.
 */
export const CONTACT_KINDS: Record<Kind, KindWords> = {
  email: {
    label: 'E-mail',
    address: { label: 'Address (e-mail)', type: 'email', hint: 'Such as ana@example.com' },
  },
  sms: {
    label: 'SMS',
    address: { label: 'Address (phone number)', type: 'tel', hint: 'E.164, such as +14155550100' },
  },
  voice: {
    label: 'Phone call',
    address: { label: 'Address (phone number)', type: 'tel', hint: 'E.164, such as +14155550100' },
  },
  pushover: {
    label: 'Pushover',
    address: { label: 'Address (Pushover user key)', type: 'text', hint: '30 letters and digits' },
  },
  telegram: {
    label: 'Telegram',
    address: { label: 'Address (Telegram chat id)', type: 'text', hint: 'Your chat with the account’s bot' },
  },
  ntfy: {
    label: 'ntfy',
    address: { label: 'Address (ntfy topic URL)', type: 'url', hint: 'Such as https://ntfy.sh/ana-pages' },
  },
  console: { label: 'This console' },
};

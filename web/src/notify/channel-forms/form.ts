/**
 * One messaging provider's form in the console, declared as data: its channel type's label and
 * config fields in order, and/or the contact method kinds it serves people with (`people`). One
 * file per provider under this folder, one line each in ./registry.ts (`PROVIDER_FORMS`), from
 * which the channel types' forms and the console's contact method kinds are derived; `tsc -p web`
 * fails until each channel type and each kind of the API document has its form.
 * ../channel-fields.tsx renders any channel form.
 */

/** How a field edits its config key. */
type ChannelFieldKind =
  /** One line of text. */
  | 'text'
  /** A URL (type="url"). */
  | 'url'
  /** Write-only (password input): never read back; left empty on an edit, the stored value is kept. */
  | 'secret'
  /** A whole number (sent as a JSON number; empty leaves the key out). */
  | 'number'
  /** One of `options` (sent as the string chosen; '' leaves the key out). */
  | 'select'
  /** Several values separated by commas, semicolons, spaces or new lines (sent as a string array). */
  | 'list';

export interface ChannelField {
  /** The config key (`config.<key>` in the API's field errors). */
  key: string;
  label: string;
  kind: ChannelFieldKind;
  required?: boolean;
  /** A sentence under the field: where to find the value, what it does. */
  hint?: string;
  placeholder?: string;
  /** select: the values offered (the first is the default of a new channel). */
  options?: readonly string[];
  /** secret: the words the channel lists show after the target while one is set ("signed", "with token"). */
  whileSet?: string;
}

/** A person's contact method kind as the console shows it: its name, and its address field. */
export interface PersonUseForm {
  label: string;
  /** The address field: its label, input type and hint; absent for a kind that takes none. */
  address?: { label: string; type: string; hint: string };
}

export interface ChannelForm {
  /** The type select's label: "PagerDuty", "Microsoft Teams". */
  label: string;
  fields: readonly ChannelField[];
  /**
   * The view's config keys the channel lists show as where it sends, the first one set wins (nats:
   * the published subject, else the subject); default: the first field that is not a secret.
   */
  target?: readonly string[];
  /**
   * false: the type sends the event as JSON (webhook, nats) and takes no message template, as its
   * definition in lib says; the form then offers none. Absent: "Message template (optional)".
   */
  templates?: false;
  /**
   * The contact method kinds (the API's: its provider file's `people`) through which this provider also
   * reaches people, each with its words: ../../contacts/contact-kinds.ts builds the console's kinds
   * from them. Declare the form `satisfies ChannelForm` so the kinds' names stay checked. Absent:
   * the provider serves alert channels only.
   */
  people?: Readonly<Record<string, PersonUseForm>>;
}

/** The form of a provider that reaches people only, with no alert channel type: its kinds' words. */
interface PeopleForm {
  people: Readonly<Record<string, PersonUseForm>>;
}

/** A provider's form: a channel type's (and maybe its people's), or its people's only. */
export type ProviderForm = ChannelForm | PeopleForm;

/** The required https:// URL a webhook-style provider posts to; `hint` says where to find it. */
export function webhookUrlField(hint: string): ChannelField {
  return { key: 'url', label: 'URL', kind: 'url', required: true, placeholder: 'https://', hint };
}

import { describe, expect, it } from 'vitest';
import { CONTACT_KIND_DEFINITIONS, contactKind } from '../../../lib/contacts/kinds/registry.ts';
import { gotifyChannel } from '../../../lib/notify/channels/gotify.ts';
import { defineContactKind } from '../../../lib/notify/channels/person-use.ts';
import { channelsOf, peopleOf } from '../../../lib/notify/channels/provider-uses.ts';
import { CHANNEL_DEFINITIONS, PROVIDERS } from '../../../lib/notify/channels/registry.ts';
import { smsPeople } from '../../../lib/notify/channels/sms.ts';

/**
 * The one provider registry (lib/notify/channels/registry.ts PROVIDERS): the channel types and the
 * contact method kinds are both derived from it, whether a provider serves channels, people or both.
 */

const kind = (label: string) =>
  defineContactKind({
    label,
    address: null,
    missing: () => undefined,
    send: async () => ({ ok: true }),
  });

describe('the messaging-provider registry', () => {
  it('derives channel types from the providers with a channel, and kinds from every provider’s people', () => {
    const pager = kind('Pager');
    const providers = {
      gotify: { channel: gotifyChannel },
      beeper: { people: { beeper: pager } },
      sms: { channel: CHANNEL_DEFINITIONS.sms, people: smsPeople },
    };

    expect(channelsOf(providers)).toEqual({ gotify: gotifyChannel, sms: CHANNEL_DEFINITIONS.sms });
    expect(Object.keys(channelsOf(providers))).toEqual(['gotify', 'sms']);
    expect(peopleOf(providers)).toEqual({ beeper: pager, sms: smsPeople.sms, voice: smsPeople.voice });
  });

  it('refuses a kind of contact method two providers serve', () => {
    expect(() =>
      peopleOf({ a: { people: { pager: kind('A') } }, b: { people: { pager: kind('B') } } }),
    ).toThrow('the contact method kind pager is served twice (again by b)');
  });

  it('keeps the API document’s order of channel types and of contact method kinds', () => {
    expect(Object.keys(CHANNEL_DEFINITIONS)).toEqual(Object.keys(PROVIDERS));
    expect(Object.keys(CONTACT_KIND_DEFINITIONS)).toEqual([
      'email',
      'sms',
      'voice',
      'pushover',
      'telegram',
      'ntfy',
      'console',
    ]);
    expect(contactKind('voice')).toBe(smsPeople.voice);
    expect(() => contactKind('fax')).toThrow('no contact method kind "fax" is registered');
  });
});

import { describe, expect, it } from 'vitest';
import { CONTACT_KIND_DEFINITIONS, contactKind, peopleOf } from '../../../lib/contacts/kinds/registry.ts';
import { channelOf, providerChannels } from '../../../lib/notify/channels/provider-channels.ts';
import { CHANNEL_DEFINITIONS } from '../../../lib/notify/channels/registry.ts';
import { defineProviderChannel } from '../../../lib/providers/channel-use.ts';
import { definePersonUse } from '../../../lib/providers/person-use.ts';
import { PROVIDERS } from '../../../lib/providers/registry.ts';
import { sampleAlert } from './alert-fixture.ts';
import { sampleDigest, sendDeps, channelOf as stored } from './phone-fixtures.ts';

/**
 * The one provider registry (lib/providers/registry.ts PROVIDERS): the channel types (lib/notify)
 * and the contact method kinds (lib/contacts) are both derived from it, whether a provider serves
 * channels, people or both.
 */

const kind = (label: string) =>
  definePersonUse({
    label,
    address: null,
    missing: () => undefined,
    send: async () => ({ ok: true }),
  });

describe('the messaging-provider registry', () => {
  it('derives channel types from the providers with a channel, and kinds from every provider’s people', () => {
    const pager = kind('Pager');
    const providers = {
      beeper: { people: { beeper: pager } },
      sms: PROVIDERS.sms,
      ntfy: { channel: PROVIDERS.ntfy.channel },
    };

    expect(Object.keys(providerChannels(providers))).toEqual(['sms', 'ntfy']);
    expect(providerChannels(providers).sms.label).toBe('SMS');
    expect(peopleOf(providers)).toEqual({
      beeper: pager,
      sms: PROVIDERS.sms.people.sms,
      voice: PROVIDERS.sms.people.voice,
    });
  });

  it('refuses a kind of contact method two providers serve', () => {
    expect(() =>
      peopleOf({ a: { people: { pager: kind('A') } }, b: { people: { pager: kind('B') } } }),
    ).toThrow('the contact method kind pager is served twice (again by b)');
  });

  it('gives a provider’s channel the alert written (its template applied) and the digest described', async () => {
    const seen: unknown[] = [];
    const channel = channelOf(
      defineProviderChannel({
        ...PROVIDERS.ntfy.channel,
        send: async (_deps, config, alert) => {
          seen.push({
            config,
            title: alert.message.title,
            short: alert.titleWithName(4),
            id: alert.deliveryId,
          });
          return { ok: true, status_code: 200, error: null };
        },
        sendDigest: async (_deps, _config, digest) => {
          seen.push({ digest: digest.message.title, id: digest.deliveryId });
          return { ok: true, status_code: 200, error: null };
        },
      }),
    );
    const deps = sendDeps(undefined);
    const on = stored({ url: 'https://ntfy.example/alerts' });
    await channel.send(deps, { ...on, template: { title: '{{entity_name}} needs you' } }, sampleAlert());
    await channel.sendDigest(deps, on, sampleDigest(3));
    expect(seen).toEqual([
      {
        config: on.config,
        title: 'Payments API needs you',
        short: 'Pay… needs you',
        id: sampleAlert().deliveryId,
      },
      { digest: expect.stringMatching(/^Digest: /), id: sampleDigest(3).deliveryId },
    ]);
  });

  it('keeps the API document’s order of channel types and of contact method kinds', () => {
    expect(Object.keys(CHANNEL_DEFINITIONS)).toEqual([
      ...['slack', 'discord', 'webhook', 'nats', 'ntfy', 'email', 'teams', 'google_chat'],
      ...['mattermost', 'matrix', 'pagerduty', 'opsgenie', 'telegram', 'pushover', 'gotify', 'sms'],
    ]);
    expect(Object.keys(CONTACT_KIND_DEFINITIONS)).toEqual([
      'email',
      'sms',
      'voice',
      'pushover',
      'telegram',
      'ntfy',
      'console',
    ]);
    expect(contactKind('voice')).toBe(PROVIDERS.sms.people.voice);
    expect(() => contactKind('fax')).toThrow('no contact method kind "fax" is registered');
  });
});

// The adapter registry: a channel's providers are tried in order against the configuration; an unconfigured
// channel has no adapter and a reason naming what to set; tests can serve their own adapters.
import { afterEach, describe, expect, it } from 'vitest';
import { parseEnvironment } from '#lib/config.ts';
import { adapterFor, adapterFromConfig, PROVIDER_FACTORIES, unconfiguredReason, useTestAdapters, type AdapterFactory } from '#lib/channel-adapters/adapters.ts';
import type { AdapterServices, ChannelAdapter, DeliveryChannel } from '#lib/channel-adapters/port.ts';
import { CHANNELS } from '#lib/rule-engine/index.ts';

const adapter = (channel: DeliveryChannel, provider: string): ChannelAdapter => ({ channel, provider, send: async () => ({ status: 'sent', providerMessageId: null }) });
const none = Object.fromEntries(CHANNELS.map((c) => [c, []])) as unknown as Record<DeliveryChannel, AdapterFactory[]>;

/** Adapters under test here never reach for a service: calling one is a failure of the test. */
const services: AdapterServices = {
  issueReplyCode: () => Promise.reject(new Error('no reply codes in this test')),
  primaryEmailOf: () => Promise.reject(new Error('no people in this test')),
};

afterEach(() => useTestAdapters(undefined));

describe('adapterFromConfig', () => {
  const base = parseEnvironment({});

  it('answers the first provider whose factory is configured, in order', () => {
    const calls: string[] = [];
    const factories = {
      ...none,
      sms: [
        (() => (calls.push('first'), undefined)) as AdapterFactory,
        ((c) => (calls.push('second'), c.tableName === 'hark' ? adapter('sms', 'twilio') : undefined)) as AdapterFactory,
        (() => (calls.push('third'), adapter('sms', 'end-user-messaging'))) as AdapterFactory,
      ],
    };
    expect(adapterFromConfig('sms', base, services, factories)?.provider).toBe('twilio');
    expect(calls).toEqual(['first', 'second']);
  });

  it('reads the configuration it is given', () => {
    const factories = { ...none, email: [((c) => (c.tableName === 'other' ? adapter('email', 'smtp') : undefined)) as AdapterFactory] };
    expect(adapterFromConfig('email', base, services, factories)).toBeUndefined();
    expect(adapterFromConfig('email', parseEnvironment({ HARK_TABLE_NAME: 'other' }), services, factories)?.provider).toBe('smtp');
  });

  it('has no adapter for a channel without providers', () => {
    expect(adapterFromConfig('voice', base, services, none)).toBeUndefined();
  });
});

describe('adapterFor', () => {
  it('lists every channel, and an unconfigured one has no adapter', () => {
    expect(Object.keys(PROVIDER_FACTORIES).sort()).toEqual([...CHANNELS].sort());
    const empty = parseEnvironment({});
    for (const channel of CHANNELS) expect(adapterFromConfig(channel, empty, services)).toBeUndefined();
  });

  it('serves the test adapters instead of the configuration, and a channel left out has none', () => {
    const email = adapter('email', 'test');
    useTestAdapters({ email });
    expect(adapterFor('email', services)).toBe(email);
    expect(adapterFor('sms', services)).toBeUndefined();
    useTestAdapters(undefined);
    expect(adapterFor('email', services, parseEnvironment({}))).toBeUndefined();
  });
});

describe('unconfiguredReason', () => {
  it('names the channel and what to set', () => {
    expect(unconfiguredReason('email')).toBe('no email provider is configured: set HARK_SMTP_URL (or HARK_EMAIL_PROVIDER=ses on AWS)');
    for (const channel of CHANNELS) expect(unconfiguredReason(channel)).toMatch(/^no .+ provider is configured/);
  });
});

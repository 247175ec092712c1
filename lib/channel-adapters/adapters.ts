// The one registry of delivery adapters: which adapter serves a channel is decided by configuration alone. Each
// provider module exports a factory `(config, services) => ChannelAdapter | undefined` (undefined = not configured,
// services = what the delivery domain lends adapters: the reply-code store, people's emails); a
// channel's factories are tried in order and the first configured one serves it. A channel nobody configured has
// no adapter, and the delivery worker records its messages as `suppressed` with `unconfiguredReason`.
// Rules: docs/notifications.md, "Providers and configuration".
import { config, type HarkConfig } from '../config.ts';
import { emailAdapter } from './email.ts';
import { ntfyAdapter } from './ntfy.ts';
import { slackAdapter } from './slack.ts';
import type { AdapterServices, ChannelAdapter, DeliveryChannel } from './port.ts';
import { smsAdapter, voiceAdapter } from './sms.ts';
import { whatsappAdapter } from './whatsapp.ts';

/** Builds a provider's adapter from the configuration; undefined when its variables are not set. */
export type AdapterFactory = (config: HarkConfig, services: AdapterServices) => ChannelAdapter | undefined;

/**
 * The providers of each channel, in order of preference. The channel modules (email, push, chat, SMS, voice,
 * WhatsApp) append their factories here; a channel with an empty list always answers "no provider".
 */
export const PROVIDER_FACTORIES: Record<DeliveryChannel, readonly AdapterFactory[]> = {
  email: [emailAdapter],
  push: [ntfyAdapter],
  sms: [smsAdapter],
  voice: [voiceAdapter],
  whatsapp: [whatsappAdapter],
  slack: [slackAdapter],
};

/** What a suppressed record says when a channel has no provider: what is missing and what to set. */
const UNCONFIGURED_REASONS: Record<DeliveryChannel, string> = {
  email: 'no email provider is configured: set HARK_SMTP_URL (or HARK_EMAIL_PROVIDER=ses on AWS)',
  push: 'no push provider is configured: set HARK_NTFY_URL (and a link key, HARK_LINK_SECRET or HARK_NTFY_TOPIC_KEY)',
  sms: 'no SMS provider is configured: set HARK_SMS_PROVIDER (twilio or end-user-messaging) and its variables',
  voice: 'no voice provider is configured: set HARK_SMS_PROVIDER (twilio or end-user-messaging) and its variables',
  whatsapp: 'no WhatsApp provider is configured: set HARK_TWILIO_WHATSAPP_FROM and HARK_TWILIO_WHATSAPP_CONTENT_SID with the Twilio account',
  slack: 'no Slack provider is configured: set HARK_SLACK_BOT_TOKEN (and HARK_SLACK_SIGNING_SECRET for its buttons)',
};

export const unconfiguredReason = (channel: DeliveryChannel): string => UNCONFIGURED_REASONS[channel];

/** The configured adapter of a channel under `configuration`, trying its providers in order. Pure given the factories. */
export function adapterFromConfig(
  channel: DeliveryChannel,
  configuration: HarkConfig,
  services: AdapterServices,
  factories: Record<DeliveryChannel, readonly AdapterFactory[]> = PROVIDER_FACTORIES,
): ChannelAdapter | undefined {
  for (const factory of factories[channel]) {
    const adapter = factory(configuration, services);
    if (adapter) return adapter;
  }
  return undefined;
}

// Adapters hold clients (an SMTP pool, an SDK client): built once per configuration object, which config()
// replaces only when the environment changed (and per services object, which the delivery domain keeps as one constant).
const built = new WeakMap<AdapterServices, WeakMap<HarkConfig, Map<DeliveryChannel, ChannelAdapter | undefined>>>();
let overrides: Partial<Record<DeliveryChannel, ChannelAdapter>> | undefined;

/** The adapter serving `channel` in this process, or undefined when no provider is configured for it. */
export function adapterFor(channel: DeliveryChannel, services: AdapterServices, configuration: HarkConfig = config()): ChannelAdapter | undefined {
  if (overrides) return overrides[channel];
  let byConfig = built.get(services);
  if (!byConfig) built.set(services, (byConfig = new WeakMap()));
  let adapters = byConfig.get(configuration);
  if (!adapters) byConfig.set(configuration, (adapters = new Map()));
  if (!adapters.has(channel)) adapters.set(channel, adapterFromConfig(channel, configuration, services));
  return adapters.get(channel);
}

/**
 * Tests only: serve these adapters instead of the configured ones in this process (a channel left out has no
 * adapter, as if unconfigured); undefined returns to the configuration.
 */
export function useTestAdapters(adapters: Partial<Record<DeliveryChannel, ChannelAdapter>> | undefined): void {
  overrides = adapters;
}

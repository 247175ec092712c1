// WhatsApp through Twilio: a business-initiated message must use a template WhatsApp approved, so a page is the
// configured content template with three variables. Replies come back to the SMS endpoint (From "whatsapp:+…").
// Rules: docs/notifications.md, "WhatsApp".
import { publicBaseUrlOf, type HarkConfig } from '../config.ts';
import { isBundle, type AdapterServices, type ChannelAdapter, type OutgoingMessage } from './port.ts';
import { cut, issueReplyInstruction, storageFailure } from './sms.ts';
import { bundleMessage } from './throttle.ts';
import { createTwilioResource, statusCallbackField } from './twilio.ts';

/** WhatsApp refuses template variables longer than this. */
const TEMPLATE_VARIABLE_LENGTH = 1024;

/**
 * The template's variables: {{1}} the alert (its prefix id, or "3 alerts" for a bundle), {{2}} what it is about,
 * {{3}} the reply instruction. Pure.
 */
export function templateVariables(message: OutgoingMessage, instruction: string): Record<'1' | '2' | '3', string> {
  const one = isBundle(message) ? bundleMessage(message.covers, '').subject : message.about.prefixId;
  const two = isBundle(message) ? bundleMessage(message.covers, '').text : [message.subject, message.text].filter((t) => t.trim() !== '').join(' — ');
  const clean = (text: string) => cut(text.replace(/\s+/g, ' ').trim(), TEMPLATE_VARIABLE_LENGTH) || '-';
  return { '1': clean(one), '2': clean(two), '3': clean(instruction) };
}

/** The WhatsApp adapter: Twilio's account, a WhatsApp sender and an approved content template must all be set. */
export function whatsappAdapter(config: HarkConfig, services: AdapterServices): ChannelAdapter | undefined {
  const { accountSid, authToken, apiUrl, whatsappFrom, whatsappContentSid } = config.phone.twilio;
  if (!accountSid || !authToken || !whatsappFrom || !whatsappContentSid) return undefined;
  const account = { accountSid, authToken, apiUrl };
  const publicUrl = publicBaseUrlOf(config);
  return {
    channel: 'whatsapp',
    provider: 'twilio',
    async send(message) {
      let instruction: string | undefined;
      try {
        instruction = await issueReplyInstruction(services, message, 'whatsapp');
      } catch (error) {
        return storageFailure(error);
      }
      return createTwilioResource(account, 'Messages', {
        To: `whatsapp:${message.to}`,
        From: `whatsapp:${whatsappFrom}`,
        ContentSid: whatsappContentSid,
        ContentVariables: JSON.stringify(templateVariables(message, instruction ?? 'Open Hark to act on it')),
        ...statusCallbackField(publicUrl, message.statusRef),
      });
    },
  };
}

// Inbound SMS on AWS: End User Messaging publishes each message to a two-way number's SNS topic, which invokes this
// function. Each record is answered like a Twilio reply (lib/delivery/inbound.ts). A failure is thrown so that
// Lambda's asynchronous retries try the record again. Rules: docs/notifications.md, "Inbound replies".
import type { SNSEvent } from 'aws-lambda';
import { config } from '#lib/config.ts';
import { logger } from '#lib/logger.ts';
import { answerEndUserMessagingInbound } from '#lib/delivery/inbound.ts';
import { DELIVERY_OWNERS } from '#lib/wiring/delivery-owners.ts';

export async function handler(event: SNSEvent): Promise<void> {
  const { region, phone } = config();
  const settings = { region, configurationSet: phone.endUserMessaging.configurationSet, endpoint: phone.endUserMessaging.endpoint };
  for (const record of event.Records) {
    const result = await answerEndUserMessagingInbound(DELIVERY_OWNERS, record.Sns.Message, settings);
    if (result?.status === 'failed') {
      logger.error('The answer to an inbound SMS was not sent', { error: result.error, snsMessageId: record.Sns.MessageId });
      if (result.retryable) throw new Error(result.error);
    }
  }
}

// The local inbox as the console reads it (npm start only, HARK_LOCAL_INBOX=1): messages that had no provider for
// their channel, kept in the account's inbox partition by lib/local/inbox.ts (docs/console.md, "The local inbox").
import { config } from '../config.ts';
import { queryFirst } from '../db/items.ts';
import { localInboxPk } from '../db/keys.ts';

export interface LocalInboxItem {
  pk: string;
  sk: string;
  type: 'LOCAL_INBOX';
  id: string;
  accountId: string;
  channel: string;
  to: string;
  subject: string;
  text: string;
  actions: { label: string; url: string }[];
  createdAt: string;
  ttl: number;
}

export const localInboxEnabled = (): boolean => config().localInbox;

/** The newest `limit` messages of the account's inbox, newest first. */
export function newestInboxMessages(accountId: string, limit: number): Promise<LocalInboxItem[]> {
  return queryFirst<LocalInboxItem>({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': localInboxPk(accountId) }, ScanIndexForward: false }, limit);
}

// Sender keys (docs/integrations.md, "Sender keys"): an integration type whose senders authenticate with a key in the
// body or a header (PagerDuty's routing_key) declares it on its reader; Hark generates the key, keeps it in the
// integration's options under that name, shows it to admins and rotates it. Lookups find the integration by its hash.
import { randomBytes } from 'node:crypto';
import { INTEGRATION_READERS, readerOf } from '../monitor-readers/index.ts';

/** 32 characters, as PagerDuty's routing keys: 16 random bytes of node:crypto in hex (128 bits). */
export const SENDER_KEY_LENGTH = 32;

export const newSenderKey = (): string => randomBytes(SENDER_KEY_LENGTH / 2).toString('hex');

/** The option a type keeps its sender key under (`routing_key`), or undefined for a type without one. */
export const senderKeyOptionOf = (typeId: string): string | undefined => readerOf(typeId)?.senderKey?.option;

/** The path at the root a type's senders post to with their key (`/v2/enqueue`), if it declares one. */
export const senderKeyUrlOf = (typeId: string): string | undefined => readerOf(typeId)?.senderKey?.url;

/** Every option name some type keeps a sender key under: never a type option a request may set or the lookup copies. */
export const SENDER_KEY_OPTIONS: ReadonlySet<string> = new Set(INTEGRATION_READERS.flatMap((reader) => (reader.senderKey ? [reader.senderKey.option] : [])));

/** The sender key stored in an integration's options, if its type has one and it is set. */
export function senderKeyOf(typeId: string, options: Record<string, unknown> | undefined): string | undefined {
  const option = senderKeyOptionOf(typeId);
  const value = option === undefined ? undefined : options?.[option];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

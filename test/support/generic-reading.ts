// The generic reader's Reading seen as one flat result (its one event, or "ignored" with the reason), so reader
// tests compare a whole reading at once. The webhook reader makes at most one event.
import { randomUUID } from 'node:crypto';
import { readGenericWebhook } from '#lib/monitor-readers/webhook.ts';
import type { ReaderOptions, ReadEvent } from '#lib/monitor-readers/types.ts';

export type FlatReadOptions = Omit<ReaderOptions, 'options' | 'generateId'> & { generateId?: () => string };
export type FlatReading = ReadEvent | { event: 'ignored'; reason: string; notes: string[] };

export function readFlat(payload: unknown, options: FlatReadOptions): FlatReading {
  const generate = options.generateId ?? randomUUID;
  const reading = readGenericWebhook(payload, { ...options, generateId: () => generate() });
  if (reading.events.length > 1) throw new Error(`the webhook reader made ${reading.events.length} events`);
  const [event] = reading.events;
  if (!event) return { event: 'ignored', reason: reading.ignoredReason ?? '', notes: reading.notes };
  return { ...event, notes: [...reading.notes, ...event.notes] };
}

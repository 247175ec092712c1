// Which reader reads a queued request, with which options (lib/ingest/apply.ts, readRequest; docs/ingest.md,
// "Applying a request"): the integration's type, `webhook` for items stored before types had readers.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { EntityItem } from '#lib/db/repository.ts';
import { integrationTypeIdOf, readRequest } from '#lib/ingest/apply.ts';
import { readerOf } from '#lib/monitor-readers/index.ts';
import type { IntegrationReader, ReaderOptions, ReaderRequest } from '#lib/monitor-readers/types.ts';
import type { IntegrationData } from '#lib/integrations/schema.ts';
import type { IngestMessage } from '#lib/queue/ingest.ts';

const message: IngestMessage = {
  kind: 'webhook',
  requestId: 'req-1',
  accountId: 'acct',
  integrationId: 'I',
  receivedAt: '2026-01-01T00:00:00.000Z',
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  query: { env: 'prod' },
  body: { event_type: 'create', Title: 'Disk full' },
};
const integrationOf = (type: { id: string } | undefined, options: Record<string, unknown> = {}) =>
  ({
    id: 'I',
    data: { urgency: 'high', integration_type: type, options: { token_hash: 'h', capture_additional_data: false, wrapper_key: null, ...options } },
  }) as unknown as EntityItem<IntegrationData>;

describe('readRequest', () => {
  it('reads an integration stored without a type as a webhook', () => {
    expect(integrationTypeIdOf({} as IntegrationData)).toBe('webhook');
    const reading = readRequest(message, integrationOf(undefined), readerOf);
    expect(reading.events).toEqual([
      expect.objectContaining({ event: 'create', idGenerated: true, fields: { title: 'Disk full', urgency: 'high' } }),
    ]);
  });

  it('gives the reader the request, its type options only and ids derived from the request and the event', () => {
    const seen: { request?: ReaderRequest; options?: ReaderOptions } = {};
    const probe: IntegrationReader = {
      id: 'probe',
      name: 'Probe',
      description: 'test',
      docs: 'docs/ingest.md',
      options: z.object({ alert_per: z.string().optional() }),
      read(request, options) {
        seen.request = request;
        seen.options = options;
        return { events: [], ignoredReason: 'probe', notes: [] };
      },
    };
    readRequest(message, integrationOf({ id: 'probe' }, { alert_per: 'group' }), (id) => (id === 'probe' ? probe : undefined));
    expect(seen.request).toEqual({ method: 'POST', headers: message.headers, query: { env: 'prod' }, body: message.body, rawBody: JSON.stringify(message.body) });
    expect(seen.options).toMatchObject({ options: { alert_per: 'group' }, wrapperKey: null, captureAdditionalData: false, defaultUrgency: 'high' });
    expect(seen.options!.generateId(0)).toBe(seen.options!.generateId(0));
    expect(seen.options!.generateId(1)).not.toBe(seen.options!.generateId(0));
  });

  it('reads as no event, saying why, a type without a reader or options its reader refuses', () => {
    expect(readRequest(message, integrationOf({ id: 'gone' }), readerOf)).toEqual({ events: [], ignoredReason: 'The integration\'s type "gone" has no reader', notes: [] });
    const strict: IntegrationReader = { ...readerOf('webhook')!, id: 'strict', options: z.object({ window: z.number() }) };
    const reading = readRequest(message, integrationOf({ id: 'strict' }, { window: 'soon' }), () => strict);
    expect(reading.events).toEqual([]);
    expect(reading.ignoredReason).toMatch(/^The integration's options do not fit its type "strict": window /);
  });
});

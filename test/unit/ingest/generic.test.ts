import { describe, expect, it } from 'vitest';
import { cutText, eventOf, isTrimmedNote, urgencyIn } from '#lib/monitor-readers/fields.ts';
import { readFlat as readGenericWebhook, type FlatReadOptions as GenericReadOptions, type FlatReading as GenericReading } from '../../support/generic-reading.ts';
import { MAX_ADDITIONAL_DATA_BYTES, MAX_META_BYTES, MAX_META_DEPTH } from '#lib/limits.ts';
import { jsonBytes } from '#lib/storable.ts';

const OPTIONS: GenericReadOptions = { wrapperKey: null, captureAdditionalData: false, defaultUrgency: 'medium', generateId: () => 'generated-1' };
const read = (payload: unknown, options: Partial<GenericReadOptions> = {}) => readGenericWebhook(payload, { ...OPTIONS, ...options });

function applied(reading: GenericReading) {
  if (reading.event === 'ignored') throw new Error(`ignored: ${reading.reason}`);
  return reading;
}
function ignored(reading: GenericReading) {
  if (reading.event !== 'ignored') throw new Error(`read as ${reading.event}`);
  return reading;
}

describe('event_type', () => {
  it('is trimmed and read case-insensitively', () => {
    expect(eventOf(' Create ')).toBe('create');
    expect(eventOf('UPDATE')).toBe('update');
    expect(eventOf('acknowledge')).toBe('acknowledge');
    expect(eventOf('\tResolve\n')).toBe('resolve');
    for (const value of ['ack', 'trigger', '', 1, null, undefined, ['create']]) expect(eventOf(value), String(value)).toBeUndefined();
  });

  it('ignores a payload with another or no event_type, saying why', () => {
    expect(read({ event_type: 'trigger', Id: 'a', Title: 't' })).toEqual({
      event: 'ignored',
      reason: 'event_type "trigger" is not one of create, update, acknowledge, resolve',
      notes: [],
    });
    expect(ignored(read({ Id: 'a', Title: 't' })).reason).toBe('No event_type; expected one of create, update, acknowledge, resolve');
    expect(ignored(read({ event_type: 3, Id: 'a' })).reason).toBe('event_type 3 is not one of create, update, acknowledge, resolve');
  });

  it('reads the event_type key in any case', () => {
    expect(read({ Event_Type: 'resolve', ID: 'a' }).event).toBe('resolve');
  });
});

describe('Id', () => {
  it('is read from Id, id or ID; numbers become text; strings are trimmed', () => {
    expect(applied(read({ event_type: 'resolve', Id: ' abc ' })).thirdpartyId).toBe('abc');
    expect(applied(read({ event_type: 'resolve', id: 42 })).thirdpartyId).toBe('42');
    expect(applied(read({ event_type: 'resolve', ID: 'x' }))).toMatchObject({ thirdpartyId: 'x', idGenerated: false });
  });

  it('is generated for a create without one, with a note', () => {
    expect(read({ event_type: 'create', Title: 't' })).toEqual({
      event: 'create',
      thirdpartyId: 'generated-1',
      idGenerated: true,
      fields: { title: 't', urgency: 'medium' },
      notes: ['No Id; generated generated-1'],
    });
    const random = applied(readGenericWebhook({ event_type: 'create', Title: 't' }, { ...OPTIONS, generateId: undefined }));
    expect(random.thirdpartyId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('treats a blank or non-text Id as none, with a note', () => {
    expect(applied(read({ event_type: 'create', Id: '  ', Title: 't' })).idGenerated).toBe(true);
    expect(applied(read({ event_type: 'create', Id: { a: 1 }, Title: 't' })).notes).toEqual([
      'Id {"a":1} is not a non-blank string or number; ignored it',
      'No Id; generated generated-1',
    ]);
  });

  it('is required by update, acknowledge and resolve', () => {
    for (const event of ['update', 'acknowledge', 'resolve']) {
      expect(ignored(read({ event_type: event, Title: 't' })).reason).toBe(`No Id: ${event} names the alert by its Id`);
    }
  });

  it('refuses an Id longer than the limit rather than cutting it', () => {
    expect(ignored(read({ event_type: 'create', Id: 'x'.repeat(1025), Title: 't' })).reason).toBe('Id is longer than 1024 characters');
    expect(applied(read({ event_type: 'create', Id: 'x'.repeat(1024), Title: 't' })).thirdpartyId).toHaveLength(1024);
  });
});

describe('Title and Description', () => {
  it('a create needs a non-blank Title', () => {
    for (const title of [undefined, '', '   ', null, {}]) {
      expect(ignored(read({ event_type: 'create', Id: 'a', Title: title })).reason, String(title)).toBe(
        'No Title: a create needs a non-blank Title; no alert was created',
      );
    }
  });

  it('is trimmed; a number is text; a long one is cut with a note', () => {
    expect(applied(read({ event_type: 'create', Id: 'a', Title: '  Disk full ' })).fields.title).toBe('Disk full');
    expect(applied(read({ event_type: 'create', Id: 'a', title: 500 })).fields.title).toBe('500');
    const long = applied(read({ event_type: 'create', Id: 'a', Title: 'x'.repeat(300) }));
    expect(long.fields.title).toHaveLength(255);
    expect(long.notes).toContain('Title cut to 255 characters');
  });

  it('update may leave the title out; a blank one is noted and left out', () => {
    expect(applied(read({ event_type: 'update', Id: 'a' })).fields).toEqual({});
    expect(applied(read({ event_type: 'update', Id: 'a', Title: ' ' }))).toMatchObject({ fields: {}, notes: ['Title is blank or not text; ignored it'] });
  });

  it('Description is optional; blank or null clears it; too long is cut', () => {
    expect(applied(read({ event_type: 'create', Id: 'a', Title: 't', Description: 'why' })).fields.description).toBe('why');
    expect(applied(read({ event_type: 'create', Id: 'a', Title: 't' })).fields).not.toHaveProperty('description');
    expect(applied(read({ event_type: 'update', Id: 'a', description: null })).fields).toEqual({ description: null });
    expect(applied(read({ event_type: 'update', Id: 'a', description: '  ' })).fields).toEqual({ description: null });
    const long = applied(read({ event_type: 'create', Id: 'a', Title: 't', Description: 'd'.repeat(10_001) }));
    expect(long.fields.description).toHaveLength(10_000);
    expect(long.notes).toEqual(['Description cut to 10000 characters']);
    expect(applied(read({ event_type: 'update', Id: 'a', Description: ['x'] }))).toMatchObject({ fields: {}, notes: ['Description is not text; ignored it'] });
  });

  it('cutText never splits a surrogate pair', () => {
    expect(cutText('ab😀', 3)).toBe('ab');
    expect(cutText('ab😀', 4)).toBe('ab😀');
  });
});

describe('Urgency', () => {
  it('is the first urgency word in the lower-cased text', () => {
    expect(urgencyIn('HIGH!')).toBe('high');
    expect(urgencyIn(' Critical ')).toBe('critical');
    expect(urgencyIn('priority: low')).toBe('low');
    expect(urgencyIn('medium or high')).toBe('medium');
    for (const value of ['urgent', 'silent', '', 3, null, undefined]) expect(urgencyIn(value), String(value)).toBeUndefined();
  });

  it('a create without one gets the integration default; an unreadable one is noted', () => {
    expect(applied(read({ event_type: 'create', Id: 'a', Title: 't' }, { defaultUrgency: 'critical' })).fields.urgency).toBe('critical');
    expect(applied(read({ event_type: 'create', Id: 'a', Title: 't', Urgency: 'HIGH!' })).fields.urgency).toBe('high');
    expect(applied(read({ event_type: 'create', Id: 'a', Title: 't', urgency: 'silent' }, { defaultUrgency: 'low' }))).toMatchObject({
      fields: { urgency: 'low' },
      notes: ['Urgency "silent" names none of low, medium, high, critical; used the integration\'s low'],
    });
  });

  it('an update changes it only when the payload names one', () => {
    expect(applied(read({ event_type: 'update', Id: 'a', Urgency: 'critical' })).fields).toEqual({ urgency: 'critical' });
    expect(applied(read({ event_type: 'update', Id: 'a', Urgency: 'soon' }))).toMatchObject({
      fields: {},
      notes: ['Urgency "soon" names none of low, medium, high, critical; left unchanged'],
    });
  });
});

describe('Tags and dedup_keys', () => {
  it('drops blanks, keeps text, makes values unique in first order', () => {
    expect(applied(read({ event_type: 'create', Id: 'a', Title: 't', Tags: ['db', ' ', '', null, 'db', 5, true, ' web '] })).fields.tag_list).toEqual([
      'db',
      '5',
      'true',
      'web',
    ]);
    expect(applied(read({ event_type: 'create', Id: 'a', Title: 't', tags: 'single' })).fields.tag_list).toEqual(['single']);
  });

  it('drops nested values and overlong ones with a note, and keeps at most 50', () => {
    const reading = applied(read({ event_type: 'create', Id: 'a', Title: 't', Tags: ['ok', { a: 1 }, 'x'.repeat(256)] }));
    expect(reading.fields.tag_list).toEqual(['ok']);
    expect(reading.notes).toEqual(['Tags: dropped 2 value(s) that are not text of at most 255 characters']);
    const many = applied(read({ event_type: 'create', Id: 'a', Title: 't', Tags: Array.from({ length: 60 }, (_, i) => `t${i}`) }));
    expect(many.fields.tag_list).toHaveLength(50);
    expect(many.notes).toEqual(['Tags: kept the first 50 of 60']);
  });

  it('leaves tags out when the payload has none, so an update keeps them', () => {
    expect(applied(read({ event_type: 'update', Id: 'a' })).fields).not.toHaveProperty('tag_list');
    expect(applied(read({ event_type: 'update', Id: 'a', Tags: [] })).fields).toEqual({ tag_list: [] });
  });

  it('reads dedup_keys by the same rules', () => {
    expect(applied(read({ event_type: 'create', Id: 'a', Title: 't', DEDUP_KEYS: ['k1', 'k1', ' ', 'k2'] })).fields.dedup_keys).toEqual(['k1', 'k2']);
  });
});

describe('Meta', () => {
  it('incident is true unless false or null; the severity is upper-cased; other keys are kept', () => {
    const reading = applied(
      read({ event_type: 'create', Id: 'a', Title: 't', Meta: { incident: 'yes', incident_severity: ' sev-2 ', incident_message: 'Call the vendor', runbook: { Url: 'x' } } }),
    );
    expect(reading.fields.meta).toEqual({ incident: true, incident_severity: 'SEV-2', incident_message: 'Call the vendor', runbook: { Url: 'x' } });
    expect(reading.notes).toEqual([]);
    for (const [incident, expected] of [[false, false], [null, false], [0, true], ['', true], [true, true]] as const) {
      expect(applied(read({ event_type: 'create', Id: 'a', Title: 't', Meta: { incident, incident_severity: 'SEV-1' } })).fields.meta?.incident, String(incident)).toBe(expected);
    }
  });

  it('an unknown severity, or none on an incident, becomes SEV-UNKNOWN with a note', () => {
    expect(applied(read({ event_type: 'create', Id: 'a', Title: 't', Meta: { incident: true, incident_severity: 'P1' } }))).toMatchObject({
      fields: { meta: { incident: true, incident_severity: 'SEV-UNKNOWN' } },
      notes: ['Meta.incident_severity "P1" is not one of SEV-1, SEV-2, SEV-3, SEV-4, SEV-5, SEV-UNKNOWN; used SEV-UNKNOWN'],
    });
    expect(applied(read({ event_type: 'create', Id: 'a', Title: 't', Meta: { incident: true } }))).toMatchObject({
      fields: { meta: { incident: true, incident_severity: 'SEV-UNKNOWN' } },
      notes: ['Meta.incident is set without an incident_severity; used SEV-UNKNOWN'],
    });
  });

  it('keeps nested keys as sent and leaves incident out when Meta does not name it', () => {
    expect(applied(read({ event_type: 'update', Id: 'a', meta: { Host: 'db1' } })).fields).toEqual({ meta: { Host: 'db1' } });
  });

  it('ignores a Meta that is not an object, with a note', () => {
    expect(applied(read({ event_type: 'create', Id: 'a', Title: 't', Meta: 'x' }))).toMatchObject({ fields: { title: 't' }, notes: ['Meta is not an object; ignored it'] });
    expect(applied(read({ event_type: 'create', Id: 'a', Title: 't', Meta: { incident_message: 5 } })).fields.meta).toEqual({ incident_message: '5' });
    expect(applied(read({ event_type: 'create', Id: 'a', Title: 't', Meta: { incident_message: [] } })).notes).toEqual(['Meta.incident_message is not text; ignored it']);
  });
});

describe('Capture Additional Data', () => {
  const payload = { event_type: 'create', Id: 'a', Title: 't', Description: 'd', Urgency: 'high', Tags: [], Meta: {}, dedup_keys: [], Host: 'db1', count: 3, up: false, none: null, detail: { a: [1] } };

  it('is off by default: nothing else is read', () => {
    expect(applied(read(payload)).fields).not.toHaveProperty('additional_data');
  });

  it('turns every other top-level key into a text entry, labelled as sent', () => {
    expect(applied(read(payload, { captureAdditionalData: true })).fields.additional_data).toEqual([
      { format: 'text', label: 'Host', value: 'db1' },
      { format: 'text', label: 'count', value: '3' },
      { format: 'text', label: 'up', value: 'false' },
      { format: 'text', label: 'none', value: '' },
      { format: 'text', label: 'detail', value: '{"a":[1]}' },
    ]);
  });

  it('belongs to a create only (an update changes the fields the payload names)', () => {
    expect(applied(read({ ...payload, event_type: 'update' }, { captureAdditionalData: true })).fields).not.toHaveProperty('additional_data');
  });

  it('reads the fields inside the wrapper key, not the wrapper', () => {
    const wrapped = { data: { event_type: 'create', Id: 'a', Title: 't', Host: 'db1' }, source: 'x' };
    expect(applied(read(wrapped, { wrapperKey: 'data', captureAdditionalData: true })).fields.additional_data).toEqual([{ format: 'text', label: 'Host', value: 'db1' }]);
  });
});

describe('wrapper key', () => {
  it('reads the fields inside it, keys lower-cased after unwrapping', () => {
    expect(read({ data: { attributes: { EVENT_TYPE: 'create', ID: 7, TITLE: 'x' } } }, { wrapperKey: 'data.attributes' })).toEqual({
      event: 'create',
      thirdpartyId: '7',
      idGenerated: false,
      fields: { title: 'x', urgency: 'medium' },
      notes: [],
    });
  });

  it('falls back to the whole payload with a note when it finds no object', () => {
    expect(read({ event_type: 'resolve', Id: 'a' }, { wrapperKey: 'data' })).toMatchObject({
      event: 'resolve',
      thirdpartyId: 'a',
      notes: ['Wrapper key data gave nothing, not an object; read the whole payload'],
    });
  });

  it('keeps the wrapper note when the payload is then ignored', () => {
    expect(read({ hello: 1 }, { wrapperKey: 'data' })).toEqual({
      event: 'ignored',
      reason: 'No event_type; expected one of create, update, acknowledge, resolve',
      notes: ['Wrapper key data gave nothing, not an object; read the whole payload'],
    });
  });
});

it('ignores a payload that is not an object', () => {
  for (const payload of [null, [], 'x', 3]) expect(ignored(read(payload)).reason).toBe('The payload is not a JSON object');
});

it('reads the interface example of a create with every field', () => {
  expect(
    read({
      event_type: 'create',
      Id: 'disk-db1',
      Title: 'Disk almost full',
      Description: '95% used on /var',
      Tags: ['db', 'disk'],
      Meta: { incident: true, incident_severity: 'SEV-2', incident_message: 'Customers may see errors' },
    }),
  ).toEqual({
    event: 'create',
    thirdpartyId: 'disk-db1',
    idGenerated: false,
    fields: {
      title: 'Disk almost full',
      description: '95% used on /var',
      urgency: 'medium',
      tag_list: ['db', 'disk'],
      meta: { incident: true, incident_severity: 'SEV-2', incident_message: 'Customers may see errors' },
    },
    notes: [],
  });
});

it('acknowledge and resolve read only the Id: other fields change nothing', () => {
  expect(read({ event_type: 'resolve', Id: 'a', Title: 'Up again', Urgency: 'nonsense', Tags: [{}] })).toEqual({
    event: 'resolve',
    thirdpartyId: 'a',
    idGenerated: false,
    fields: {},
    notes: [],
  });
});

it('quotes at most 64 characters of a value in a note or reason', () => {
  const reading = ignored(read({ event_type: 'x'.repeat(100) }));
  expect(reading.reason).toBe(`event_type "${'x'.repeat(64)}" is not one of create, update, acknowledge, resolve`);
  const id = applied(read({ event_type: 'create', Title: 't', Id: { long: 'y'.repeat(100) } }));
  expect(id.notes[0]).toBe(`Id ${JSON.stringify({ long: 'y'.repeat(100) }).slice(0, 64)} is not a non-blank string or number; ignored it`);
});

describe('storage limits (docs/ingest.md, "Reading a payload")', () => {
  const nested = (levels: number): unknown => {
    let value: unknown = 'bottom';
    for (let i = 0; i < levels; i++) value = { level: value };
    return value;
  };

  it('keeps Meta nested deeper than MAX_META_DEPTH as JSON text, and marks the note as a trim', () => {
    const reading = applied(read({ event_type: 'create', Id: 'a', Title: 't', Meta: { deep: nested(40), keep: 1 } }));
    let at: unknown = reading.fields.meta!.deep;
    for (let level = 2; level < MAX_META_DEPTH; level++) at = (at as { level: unknown }).level;
    expect(typeof (at as { level: unknown }).level).toBe('string');
    expect(JSON.parse((at as { level: string }).level)).toEqual(nested(40 - (MAX_META_DEPTH - 1)));
    expect(reading.fields.meta!.keep).toBe(1);
    expect(reading.notes).toEqual([`Trimmed to fit: Meta: values nested deeper than ${MAX_META_DEPTH} levels are kept as JSON text (at Meta.deep${'.level'.repeat(MAX_META_DEPTH - 1)})`]);
    expect(reading.notes.every(isTrimmedNote)).toBe(true);
  });

  it('keeps numbers DynamoDB cannot store as text, drops empty keys, and keeps the first keys within MAX_META_BYTES', () => {
    const reading = applied(read({ event_type: 'update', Id: 'a', Meta: { big: 1e200, '': 'x', a: 'x'.repeat(MAX_META_BYTES / 2), b: 'y'.repeat(MAX_META_BYTES / 2), c: 1 } }));
    expect(Object.keys(reading.fields.meta!)).toEqual(['big', 'a']);
    expect(reading.fields.meta!.big).toBe('1e+200');
    expect(reading.notes).toHaveLength(3);
    expect(reading.notes[2]).toBe(`Trimmed to fit: Meta: larger than ${MAX_META_BYTES} bytes as JSON; kept the first 2 of 4 keys and dropped b, c`);
  });

  it('keeps the first additional data entries within MAX_ADDITIONAL_DATA_BYTES, naming the ones dropped', () => {
    const payload: Record<string, unknown> = { event_type: 'create', Id: 'a', Title: 't' };
    for (let i = 0; i < 25; i++) payload[`f${i}`] = 'x'.repeat(9_900);
    const reading = applied(read(payload, { captureAdditionalData: true }));
    const data = reading.fields.additional_data!;
    expect(data.map((d) => d.label)).toEqual(Array.from({ length: 13 }, (_, i) => `f${i}`));
    expect(jsonBytes(data)).toBeLessThanOrEqual(MAX_ADDITIONAL_DATA_BYTES);
    expect(reading.notes).toEqual([
      `Trimmed to fit: additional data: larger than ${MAX_ADDITIONAL_DATA_BYTES} bytes as JSON; kept the first 13 of 25 fields and dropped f13, f14, f15, f16, f17, f18, f19, f20, f21, f22 and 2 more`,
    ]);
  });
});

// What the provider secret may set: Hark's own variables, as strings, never over what the environment already sets.
import { describe, expect, it } from 'vitest';
import { variablesOfSecret } from '#lib/channel-adapters/secrets.ts';

describe('variablesOfSecret', () => {
  it('takes Hark variables the environment does not set, and skips empty values', () => {
    const secret = JSON.stringify({ HARK_LINK_SECRET: 'k'.repeat(40), HARK_SMTP_URL: 'smtps://u:p@smtp.example.com', HARK_TWILIO_AUTH_TOKEN: '' });
    expect(variablesOfSecret(secret, { HARK_SMTP_URL: 'smtp://already' })).toEqual({ HARK_LINK_SECRET: 'k'.repeat(40) });
  });

  it('refuses anything else, naming it', () => {
    expect(() => variablesOfSecret('not json', {})).toThrow('must be a JSON object');
    expect(() => variablesOfSecret('[1]', {})).toThrow('must be a JSON object');
    expect(() => variablesOfSecret(JSON.stringify({ AWS_REGION: 'eu-west-1' }), {})).toThrow('names AWS_REGION');
    expect(() => variablesOfSecret(JSON.stringify({ HARK_TABLE_NAME: 'other' }), {})).toThrow('names HARK_TABLE_NAME');
    expect(() => variablesOfSecret(JSON.stringify({ HARK_TIMERS_QUEUE_URL: 'https://x' }), {})).toThrow('names HARK_TIMERS_QUEUE_URL');
    expect(() => variablesOfSecret(JSON.stringify({ HARK_SMTP_URL: 5 }), {})).toThrow('give HARK_SMTP_URL as a string');
  });
});

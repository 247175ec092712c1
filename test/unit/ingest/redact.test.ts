// Which header and query parameter names count as credentials in a webhook request's log, and what is kept of them.
import { describe, expect, it } from 'vitest';
import { looksLikeCredential, REDACTED, redactCredentials } from '#lib/ingest/redact.ts';

describe('looksLikeCredential', () => {
  it.each([
    // the five header names always hidden
    'service-token',
    'Authorization',
    'proxy-authorization',
    'Cookie',
    'x-api-key',
    // any prefix or suffix, any case
    'X-Auth-Token',
    'Api-Key',
    'X-Amz-Security-Token',
    'x-amz-credential',
    'X-Hub-Signature-256',
    'x-slack-signature',
    'Set-Cookie',
    'X-CSRF-TOKEN',
    'dd-api-key',
    'X-Session-Id',
    'private_key',
    'X-Webhook-Secret',
    // query parameters
    'token',
    'api_key',
    'apikey',
    'access_token',
    'client_secret',
    'password',
    'db_passwd',
    'sessionid',
    // short words as whole words only
    'sig',
    'x-sig',
    'pass',
    'user.pwd',
    'JWT',
  ])('%s is a credential', (name) => {
    expect(looksLikeCredential(name)).toBe(true);
  });

  it.each(['content-type', 'user-agent', 'x-forwarded-for', 'x-request-id', 'accept', 'host', 'x-origin', 'env', 'page', 'signal', 'design', 'passenger', 'compass', 'x-github-event'])(
    '%s is not',
    (name) => {
      expect(looksLikeCredential(name)).toBe(false);
    },
  );
});

describe('redactCredentials', () => {
  it('keeps every name, replaces credentials’ values with [redacted], and leaves the rest as sent', () => {
    expect(REDACTED).toBe('[redacted]');
    expect(redactCredentials({ token: 'abc', env: 'prod', api_key: 'k', 'X-Auth-Token': 't', '': 'x', note: '' })).toEqual({
      token: REDACTED,
      env: 'prod',
      api_key: REDACTED,
      'X-Auth-Token': REDACTED,
      '': 'x',
      note: '',
    });
  });

  it('keeps a parameter named __proto__ as a plain entry', () => {
    const redacted = redactCredentials(JSON.parse('{"__proto__":"x","secret":"s"}') as Record<string, string>);
    expect(Object.keys(redacted)).toEqual(['__proto__', 'secret']);
    expect(redacted.secret).toBe(REDACTED);
  });
});

// Every environment variable's accepted and refused values, and the one-line message a refusal gives.
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, config, parseEnvironment, reloadConfig, VARIABLE_NAMES, type VariableName } from '#lib/config.ts';

/** The one-line message parsing `env` fails with, or undefined when it is accepted. */
function refusal(env: Record<string, string>): string | undefined {
  try {
    parseEnvironment(env);
    return undefined;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.message;
  }
}

const cases: Record<VariableName, { accepted: [string, unknown][]; refused: string[]; read: (c: ReturnType<typeof parseEnvironment>) => unknown; unset: unknown }> = {
  PORT: {
    accepted: [['1', 1], ['3000', 3000], ['65535', 65535]],
    refused: ['', 'abc', '0', '70000', '65536', '-1', '30.5', ' 3000', '3e3', '0x10'],
    read: (c) => c.local.port,
    unset: 3000,
  },
  HOST: {
    accepted: [['127.0.0.1', '127.0.0.1'], ['0.0.0.0', '0.0.0.0'], ['::1', '::1'], ['localhost', 'localhost'], ['hark.example.com', 'hark.example.com']],
    refused: ['', ' ', 'http://localhost', 'a b', 'host:3000', '-bad'],
    read: (c) => c.local.host,
    unset: '127.0.0.1',
  },
  HARK_DATA_DIR: {
    accepted: [['/var/lib/hark', '/var/lib/hark'], ['data dir', 'data dir']],
    refused: [''],
    read: (c) => c.local.dataDir,
    unset: '.data',
  },
  HARK_API_KEY: {
    accepted: [['k'.repeat(32), 'k'.repeat(32)], ['hark_chosen-by-the-operator-0123456789', 'hark_chosen-by-the-operator-0123456789']],
    refused: ['', 'short', 'k'.repeat(31), `${'k'.repeat(20)} ${'k'.repeat(20)}`, 'é'.repeat(40), 'k'.repeat(513)],
    read: (c) => c.local.apiKey,
    unset: undefined,
  },
  HARK_LOG_LEVEL: {
    accepted: [['info', 'info'], ['WARN', 'warn'], ['Error', 'error'], ['silent', 'silent'], ['debug', 'debug']],
    refused: ['', 'verbose', 'quiet', 'INFO ', '3'],
    read: (c) => c.local.logLevel,
    unset: 'info',
  },
  HARK_MAX_BODY_BYTES: {
    accepted: [['1', 1], ['1024', 1024], ['262144', 262144]],
    refused: ['', 'abc', '0', '-5', '262145', '10485760', '1.5', '1e3', 'NaN', 'Infinity'],
    read: (c) => c.maxBodyBytes,
    unset: 262144,
  },
  HARK_TABLE_NAME: {
    accepted: [['hark', 'hark'], ['Hark-prod_1.table', 'Hark-prod_1.table']],
    refused: ['', 'ab', 'has space', 'x'.repeat(256), 'tábla'],
    read: (c) => c.tableName,
    unset: 'hark',
  },
  HARK_DYNAMODB_ENDPOINT: {
    accepted: [['http://127.0.0.1:8000', 'http://127.0.0.1:8000'], ['https://dynamodb.eu-west-1.amazonaws.com', 'https://dynamodb.eu-west-1.amazonaws.com']],
    refused: ['', '127.0.0.1:8000', 'ftp://host', 'not a url'],
    read: (c) => c.dynamoEndpoint,
    unset: undefined,
  },
  HARK_SQS_ENDPOINT: {
    accepted: [['http://127.0.0.1:9324', 'http://127.0.0.1:9324']],
    refused: ['', 'localhost:9324', 'sqs'],
    read: (c) => c.sqsEndpoint,
    unset: undefined,
  },
  HARK_INGEST_QUEUE_URL: {
    accepted: [['https://sqs.eu-west-1.amazonaws.com/123456789012/ingest.fifo', 'https://sqs.eu-west-1.amazonaws.com/123456789012/ingest.fifo']],
    refused: ['', 'ingest.fifo'],
    read: (c) => c.ingestQueueUrl,
    unset: undefined,
  },
  HARK_TIMERS_QUEUE_URL: {
    accepted: [['http://127.0.0.1:9324/000000000000/timers', 'http://127.0.0.1:9324/000000000000/timers']],
    refused: ['', 'timers'],
    read: (c) => c.timersQueueUrl,
    unset: undefined,
  },
  HARK_WEBHOOKS_QUEUE_URL: {
    accepted: [['http://127.0.0.1:9324/000000000000/hark-webhooks', 'http://127.0.0.1:9324/000000000000/hark-webhooks']],
    refused: ['', 'webhooks'],
    read: (c) => c.webhooksQueueUrl,
    unset: undefined,
  },
  HARK_WEBHOOK_ALLOWED_HOSTS: {
    accepted: [['hooks.internal', ['hooks.internal']], ['10.1.0.0/16,hooks.internal', ['10.1.0.0/16', 'hooks.internal']], ['', []]],
    refused: ['a, b', ',a'],
    read: (c) => c.webhookAllowedHosts,
    unset: [],
  },
  HARK_TIME_SCALE: {
    accepted: [['1', 1], ['60', 60], ['3600', 3600], ['', 1]],
    refused: ['0', '3601', 'fast', '1.5'],
    read: (c) => c.timeScale,
    unset: 1,
  },
  HARK_SMS_PROVIDER: {
    accepted: [['twilio', 'twilio'], ['end-user-messaging', 'end-user-messaging']],
    refused: ['', 'Twilio', 'sns', 'pinpoint'],
    read: (c) => c.phone.smsProvider,
    unset: undefined,
  },
  HARK_TWILIO_ACCOUNT_SID: {
    accepted: [['AC0123456789abcdef0123456789abcdef', 'AC0123456789abcdef0123456789abcdef']],
    refused: ['', 'AC123', 'AC0123456789abcdef0123456789abcdef0', 'SK0123456789abcdef0123456789abcdef'],
    read: (c) => c.phone.twilio.accountSid,
    unset: undefined,
  },
  HARK_TWILIO_AUTH_TOKEN: {
    accepted: [['0123456789abcdef0123456789abcdef', '0123456789abcdef0123456789abcdef']],
    refused: ['', 'short', 'has a space in it 0123456789'],
    read: (c) => c.phone.twilio.authToken,
    unset: undefined,
  },
  HARK_TWILIO_FROM: {
    accepted: [['+14155550100', '+14155550100'], ['MG0123456789abcdef0123456789abcdef', 'MG0123456789abcdef0123456789abcdef']],
    refused: ['', '14155550100', '+0123456789', 'Hark'],
    read: (c) => c.phone.twilio.from,
    unset: undefined,
  },
  HARK_TWILIO_API_URL: {
    accepted: [['http://127.0.0.1:4010/', 'http://127.0.0.1:4010'], ['https://api.twilio.com', 'https://api.twilio.com']],
    refused: ['', 'api.twilio.com'],
    read: (c) => c.phone.twilio.apiUrl,
    unset: 'https://api.twilio.com',
  },
  HARK_TWILIO_WHATSAPP_FROM: {
    accepted: [['+14155238886', '+14155238886']],
    refused: ['', 'whatsapp:+14155238886', '+1'],
    read: (c) => c.phone.twilio.whatsappFrom,
    unset: undefined,
  },
  HARK_TWILIO_WHATSAPP_CONTENT_SID: {
    accepted: [['HX0123456789abcdef0123456789abcdef', 'HX0123456789abcdef0123456789abcdef']],
    refused: ['', 'HX12', 'AC0123456789abcdef0123456789abcdef'],
    read: (c) => c.phone.twilio.whatsappContentSid,
    unset: undefined,
  },
  HARK_SMS_ORIGINATION_IDENTITY: {
    accepted: [['+14155550100', '+14155550100'], ['pool-0123456789abcdef', 'pool-0123456789abcdef']],
    refused: ['', 'has space'],
    read: (c) => c.phone.endUserMessaging.originationIdentity,
    unset: undefined,
  },
  HARK_SMS_CONFIGURATION_SET: {
    accepted: [['hark-alerts', 'hark-alerts']],
    refused: ['', 'has space'],
    read: (c) => c.phone.endUserMessaging.configurationSet,
    unset: undefined,
  },
  HARK_END_USER_MESSAGING_ENDPOINT: {
    accepted: [['http://127.0.0.1:4020', 'http://127.0.0.1:4020']],
    refused: ['', 'sms-voice.eu-west-1.amazonaws.com'],
    read: (c) => c.phone.endUserMessaging.endpoint,
    unset: undefined,
  },
  HARK_PUBLIC_URL: {
    accepted: [['https://hark.example.com', 'https://hark.example.com'], ['http://127.0.0.1:3000/', 'http://127.0.0.1:3000/']],
    refused: ['', 'hark.example.com', 'ftp://hark.example.com'],
    read: (c) => c.links.publicUrl,
    unset: undefined,
  },
  HARK_LOCAL_INBOX: {
    accepted: [['1', true], ['0', false]],
    refused: ['', 'yes', 'true'],
    read: (c) => c.localInbox,
    unset: false,
  },
  HARK_LINK_SECRET: {
    accepted: [['s'.repeat(32), 's'.repeat(32)]],
    refused: ['', 'short', 's'.repeat(31), `${'s'.repeat(20)} ${'s'.repeat(20)}`, 's'.repeat(513)],
    read: (c) => c.links.secret,
    unset: undefined,
  },
  HARK_LINK_SECRET_PREVIOUS: {
    accepted: [['p'.repeat(40), 'p'.repeat(40)]],
    refused: ['', 'p'.repeat(31)],
    read: (c) => c.links.previousSecret,
    unset: undefined,
  },
  HARK_EMAIL_PROVIDER: {
    accepted: [['ses', 'ses']],
    refused: ['', 'sendgrid', 'SES'],
    read: (c) => c.email.provider,
    unset: undefined,
  },
  HARK_SMTP_URL: {
    accepted: [['smtp://127.0.0.1:2525', 'smtp://127.0.0.1:2525'], ['smtps://user:pass@mail.example.com:465', 'smtps://user:pass@mail.example.com:465']],
    refused: ['', 'mail.example.com:25', 'http://mail.example.com'],
    read: (c) => c.email.smtpUrl,
    unset: undefined,
  },
  HARK_MAIL_FROM: {
    accepted: [['alerts@example.com', 'alerts@example.com'], ['Hark Alerts <alerts@example.com>', 'Hark Alerts <alerts@example.com>']],
    refused: ['', 'alerts', 'Hark <alerts>', 'a@b.c\r\nBcc: x@y.z'],
    read: (c) => c.email.from,
    unset: 'Hark <hark@localhost>',
  },
  HARK_SNS_CERT_DIR: {
    accepted: [['/etc/hark/sns-certs', '/etc/hark/sns-certs']],
    refused: [''],
    read: (c) => c.inbound.snsCertDir,
    unset: undefined,
  },
  HARK_INBOUND_EMAIL_DOMAIN: {
    accepted: [['alerts.example.com', 'alerts.example.com'], ['Alerts.Example.COM', 'alerts.example.com']],
    refused: ['', 'a b', '@example.com', 'http://example.com'],
    read: (c) => c.inbound.emailDomain,
    unset: undefined,
  },
  HARK_INBOUND_EMAIL_BUCKET: {
    accepted: [['hark-inbound-mail-1a2b3c', 'hark-inbound-mail-1a2b3c']],
    refused: ['', 'Upper_Case', 'a'],
    read: (c) => c.inbound.emailBucket,
    unset: undefined,
  },
  HARK_SMTP_INBOUND_PORT: {
    accepted: [['2525', 2525], ['1', 1]],
    refused: ['', '0', '65536', 'smtp'],
    read: (c) => c.inbound.smtpPort,
    unset: undefined,
  },
  HARK_NTFY_URL: {
    accepted: [['https://ntfy.sh', 'https://ntfy.sh'], ['http://127.0.0.1:8080', 'http://127.0.0.1:8080']],
    refused: ['', 'ntfy.sh'],
    read: (c) => c.ntfy.url,
    unset: undefined,
  },
  HARK_NTFY_TOKEN: {
    accepted: [['tk_AgQdq7mVBoFD37zQVN29RhuMzNIz2', 'tk_AgQdq7mVBoFD37zQVN29RhuMzNIz2']],
    refused: ['', 'tk with space'],
    read: (c) => c.ntfy.token,
    unset: undefined,
  },
  HARK_NTFY_TOPIC_KEY: {
    accepted: [['t'.repeat(32), 't'.repeat(32)]],
    refused: ['', 'short'],
    read: (c) => c.ntfy.topicKey,
    unset: undefined,
  },
  HARK_SLACK_BOT_TOKEN: {
    accepted: [['xoxb-1234-5678-abcdef', 'xoxb-1234-5678-abcdef']],
    refused: ['', 'xoxp-1234', 'xoxb-'],
    read: (c) => c.slack.botToken,
    unset: undefined,
  },
  HARK_SLACK_SIGNING_SECRET: {
    accepted: [['8f742231b10e8888abcd99yyyzzz85a5', '8f742231b10e8888abcd99yyyzzz85a5']],
    refused: ['', 'short'],
    read: (c) => c.slack.signingSecret,
    unset: undefined,
  },
  HARK_SLACK_API_URL: {
    accepted: [['http://127.0.0.1:9999/api/', 'http://127.0.0.1:9999/api']],
    refused: ['', 'slack.com'],
    read: (c) => c.slack.apiUrl,
    unset: 'https://slack.com/api',
  },
  HARK_CONFIG_CACHE_MS: {
    accepted: [['0', 0], ['250', 250], ['60000', 60000]],
    refused: ['', '-1', '60001', '1.5', 'soon'],
    read: (c) => c.configCacheMs,
    unset: 1000,
  },
  HARK_SECRETS_ARN: {
    accepted: [['arn:aws:secretsmanager:eu-west-1:123456789012:secret:HarkProviders-AbCdEf', 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:HarkProviders-AbCdEf']],
    refused: ['', 'HarkProviders', 'arn:aws:ssm:eu-west-1:123456789012:parameter/x'],
    read: (c) => c.secretsArn,
    unset: undefined,
  },
  AWS_REGION: {
    accepted: [['eu-west-1', 'eu-west-1'], ['us-gov-west-1', 'us-gov-west-1'], ['', 'us-east-1']],
    refused: ['Europe', 'eu_west_1', 'us-east-'],
    read: (c) => c.region,
    unset: 'us-east-1',
  },
  AWS_DEFAULT_REGION: {
    accepted: [['ap-southeast-2', 'ap-southeast-2'], ['', 'us-east-1']],
    refused: ['sydney', '1'],
    read: (c) => c.region,
    unset: 'us-east-1',
  },
  POWERTOOLS_LOG_LEVEL: {
    accepted: [['DEBUG', 'DEBUG'], ['warn', 'WARN'], ['silent', 'SILENT'], ['', 'INFO']],
    refused: ['verbose', 'INFO ', '3'],
    read: (c) => c.logLevel,
    unset: 'INFO',
  },
  POWERTOOLS_SERVICE_NAME: {
    accepted: [['hark-prod', 'hark-prod'], ['', 'hark']],
    refused: [],
    read: (c) => c.serviceName,
    unset: 'hark',
  },
  AWS_LAMBDA_FUNCTION_NAME: {
    accepted: [['HarkStack-SchedulesLambda', 'HarkStack-SchedulesLambda'], ['', undefined]],
    refused: [],
    read: (c) => c.lambdaFunctionName,
    unset: undefined,
  },
};

describe('configuration', () => {
  it('covers every variable the schema reads', () => {
    expect(Object.keys(cases).sort()).toEqual([...VARIABLE_NAMES].sort());
  });

  for (const name of VARIABLE_NAMES) {
    const { accepted, refused, read, unset } = cases[name];
    describe(name, () => {
      it('has a default when unset', () => {
        expect(read(parseEnvironment({}))).toEqual(unset);
      });
      it.each(accepted)('accepts %j', (value, expected) => {
        expect(refusal({ [name]: value })).toBeUndefined();
        if (expected !== undefined) expect(read(parseEnvironment({ [name]: value }))).toEqual(expected);
      });
      if (refused.length) {
        it.each(refused)('refuses %j with one line naming it', (value) => {
          const message = refusal({ [name]: value })!;
          expect(message).toMatch(new RegExp(`^${name} must be .+got `));
          expect(message).not.toContain('\n');
        });
      }
    });
  }

  it('quotes the bad value', () => {
    expect(refusal({ HARK_MAX_BODY_BYTES: 'abc' })).toBe('HARK_MAX_BODY_BYTES must be a whole number of bytes from 1 to 262144, got "abc"');
    expect(refusal({ PORT: '' })).toBe('PORT must be a TCP port number from 1 to 65535, got ""');
  });

  it('never echoes an API key back, only its length', () => {
    const message = refusal({ HARK_API_KEY: 'short-secret' })!;
    expect(message).toBe('HARK_API_KEY must be 32 to 512 printable characters without spaces, got 12 characters');
    expect(message).not.toContain('short-secret');
    expect(refusal({ HARK_LINK_SECRET: 'short-secret' })).toBe('HARK_LINK_SECRET must be 32 to 512 printable characters without spaces, got 12 characters');
  });

  it('sends email by SMTP once HARK_SMTP_URL is set, and refuses smtp without a URL', () => {
    expect(parseEnvironment({ HARK_SMTP_URL: 'smtp://127.0.0.1:2525' }).email.provider).toBe('smtp');
    expect(parseEnvironment({ HARK_EMAIL_PROVIDER: 'ses' }).email).toEqual({ provider: 'ses', smtpUrl: undefined, from: 'Hark <hark@localhost>' });
    expect(refusal({ HARK_EMAIL_PROVIDER: 'smtp' })).toBe('HARK_SMTP_URL must be set when HARK_EMAIL_PROVIDER is smtp');
  });

  it('prefers AWS_REGION over AWS_DEFAULT_REGION', () => {
    expect(parseEnvironment({ AWS_REGION: 'eu-west-1', AWS_DEFAULT_REGION: 'us-west-2' }).region).toBe('eu-west-1');
    expect(parseEnvironment({ AWS_DEFAULT_REGION: 'us-west-2' }).region).toBe('us-west-2');
  });

  it('accepts only HARK_TIME_SCALE=1 in a deployed stack', () => {
    const deployed = { AWS_LAMBDA_FUNCTION_NAME: 'HarkStack-AlertsLambda' };
    expect(refusal({ ...deployed, HARK_TIME_SCALE: '60' })).toBe('HARK_TIME_SCALE must be 1 in a deployed stack (got 60); faster time is for the local runtime only');
    expect(parseEnvironment({ ...deployed, HARK_TIME_SCALE: '1' }).timeScale).toBe(1);
    expect(parseEnvironment({ ...deployed, HARK_TIME_SCALE: '60', HARK_DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000' }).timeScale).toBe(60);
  });

  it('ignores variables it does not read', () => {
    expect(refusal({ SOMETHING_ELSE: '' })).toBeUndefined();
  });
});

describe('config()', () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const name of VARIABLE_NAMES) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  it('answers the same object while the environment is unchanged, and sees a change', () => {
    process.env.HARK_TABLE_NAME = 'first-table';
    const first = config();
    expect(first.tableName).toBe('first-table');
    expect(config()).toBe(first);
    process.env.HARK_TABLE_NAME = 'second-table';
    expect(config().tableName).toBe('second-table');
    delete process.env.HARK_TABLE_NAME;
    expect(config().tableName).toBe('hark');
  });

  it('reads a setting again only when asked to, and a wiring variable whenever it changed', () => {
    delete process.env.HARK_MAX_BODY_BYTES;
    expect(reloadConfig().maxBodyBytes).toBe(262144);
    process.env.HARK_MAX_BODY_BYTES = '1024';
    expect(config().maxBodyBytes).toBe(262144);
    expect(reloadConfig().maxBodyBytes).toBe(1024);
    for (const [name, value] of [
      ['HARK_DYNAMODB_ENDPOINT', 'http://127.0.0.1:1'],
      ['HARK_SQS_ENDPOINT', 'http://127.0.0.1:2'],
      ['HARK_INGEST_QUEUE_URL', 'http://127.0.0.1:2/000000000000/q.fifo'],
      ['AWS_REGION', 'eu-central-1'],
    ] as const) {
      const before = config();
      process.env[name] = value;
      expect(config()).not.toBe(before);
    }
    expect(config()).toMatchObject({ dynamoEndpoint: 'http://127.0.0.1:1', sqsEndpoint: 'http://127.0.0.1:2', region: 'eu-central-1' });
  });

  it('throws the one-line error for a bad value set later', () => {
    process.env.HARK_MAX_BODY_BYTES = 'abc';
    expect(() => reloadConfig()).toThrow(new ConfigError('HARK_MAX_BODY_BYTES', 'HARK_MAX_BODY_BYTES must be a whole number of bytes from 1 to 262144, got "abc"'));
  });
});

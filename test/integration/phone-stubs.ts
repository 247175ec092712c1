// Local stand-ins for the phone providers, checking what the providers check: Twilio's REST API (HTTP Basic auth
// with the account SID and auth token, a form body) and AWS End User Messaging SMS and Voice v2 (the AWS JSON 1.0
// protocol: a SigV4 Authorization header, X-Amz-Target naming the operation, a JSON body).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StubRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface Stub {
  url: string;
  requests: StubRequest[];
  close(): Promise<void>;
}

type Answer = { status: number; headers?: Record<string, string>; body: unknown };

async function startStub(answer: (request: StubRequest) => Answer): Promise<Stub> {
  const requests: StubRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request: StubRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(request);
      const { status, headers, body } = answer(request);
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

export const TWILIO_SID = `AC${'0123456789abcdef'.repeat(2)}`;
export const TWILIO_TOKEN = 'stub-twilio-auth-token-fedcba9876543210';
/** A destination the Twilio stub refuses as Twilio refuses an invalid number (400, error 21211). */
export const TWILIO_INVALID_NUMBER = '+15005550001';
/** A destination the Twilio stub answers 503 for. */
export const TWILIO_UNAVAILABLE_NUMBER = '+15005550002';

/** Twilio: 401 without the right Basic auth, 400 for a form without To, 201 with a sid otherwise. */
export function startTwilioStub(): Promise<Stub> {
  let sequence = 0;
  return startStub((request) => {
    const expected = `Basic ${Buffer.from(`${TWILIO_SID}:${TWILIO_TOKEN}`).toString('base64')}`;
    if (request.headers.authorization !== expected) return { status: 401, body: { code: 20003, message: 'Authenticate', status: 401 } };
    const match = /^\/2010-04-01\/Accounts\/([^/]+)\/(Messages|Calls)\.json$/.exec(request.path);
    if (request.method !== 'POST' || !match || match[1] !== TWILIO_SID) return { status: 404, body: { code: 20404, message: 'Not found', status: 404 } };
    if (request.headers['content-type'] !== 'application/x-www-form-urlencoded') return { status: 400, body: { code: 20001, message: 'form body expected', status: 400 } };
    const form = new URLSearchParams(request.body);
    const to = form.get('To');
    if (!to) return { status: 400, body: { code: 21604, message: "A 'To' phone number is required.", status: 400 } };
    if (to.endsWith(TWILIO_INVALID_NUMBER)) return { status: 400, body: { code: 21211, message: `The 'To' number ${to} is not a valid phone number.`, status: 400 } };
    if (to.endsWith(TWILIO_UNAVAILABLE_NUMBER)) return { status: 503, body: { code: 20503, message: 'Service unavailable', status: 503 } };
    sequence += 1;
    const sid = `${match[2] === 'Calls' ? 'CA' : 'SM'}${String(sequence).padStart(32, '0')}`;
    return { status: 201, body: { sid, status: 'queued', to } };
  });
}

/** The form fields of a request to the Twilio stub. */
export const formOf = (request: StubRequest): Record<string, string> => Object.fromEntries(new URLSearchParams(request.body));

/** A destination End User Messaging's stub refuses with a ValidationException; another it throttles. */
export const EUM_INVALID_NUMBER = '+15005550003';
export const EUM_THROTTLED_NUMBER = '+15005550004';

/** AWS End User Messaging SMS and Voice v2: checks the SigV4 header and the JSON 1.0 target, answers a MessageId. */
export function startEndUserMessagingStub(): Promise<Stub> {
  let sequence = 0;
  return startStub((request) => {
    const awsError = (status: number, type: string, message: string): Answer => ({ status, headers: { 'x-amzn-errortype': type }, body: { __type: type, message } });
    if (!/^AWS4-HMAC-SHA256 Credential=\S+\/\d{8}\/[a-z0-9-]+\/sms-voice\/aws4_request, SignedHeaders=\S+, Signature=[0-9a-f]{64}$/.test(String(request.headers.authorization))) {
      return awsError(403, 'MissingAuthenticationTokenException', 'Missing Authentication Token');
    }
    if (request.headers['content-type'] !== 'application/x-amz-json-1.0') return awsError(400, 'SerializationException', 'bad content type');
    const target = String(request.headers['x-amz-target']);
    if (target !== 'PinpointSMSVoiceV2.SendTextMessage' && target !== 'PinpointSMSVoiceV2.SendVoiceMessage') return awsError(400, 'UnknownOperationException', target);
    const body = JSON.parse(request.body) as { DestinationPhoneNumber?: string };
    if (body.DestinationPhoneNumber === EUM_INVALID_NUMBER) return awsError(400, 'ValidationException', 'Invalid destination phone number');
    if (body.DestinationPhoneNumber === EUM_THROTTLED_NUMBER) return awsError(400, 'ThrottlingException', 'Rate exceeded');
    sequence += 1;
    return { status: 200, body: { MessageId: `eum-${sequence}` } };
  });
}

/** A random number per test, so parallel files never share a number's reply codes. */
export const randomPhone = (): string => `+1415${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;

export const TWILIO_FROM = '+14155550100';

/** The environment of a stack sending SMS and calls through the Twilio stub; `overrides` replace or add variables. */
export const twilioEnvironment = (stub: Pick<Stub, 'url'>, overrides: Record<string, string> = {}): Record<string, string> => ({
  HARK_SMS_PROVIDER: 'twilio',
  HARK_TWILIO_ACCOUNT_SID: TWILIO_SID,
  HARK_TWILIO_AUTH_TOKEN: TWILIO_TOKEN,
  HARK_TWILIO_FROM: TWILIO_FROM,
  HARK_TWILIO_API_URL: stub.url,
  ...overrides,
});

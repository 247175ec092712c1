// The smoke check's HTTP client: the deployment's public API with an admin key, as any client of Hark calls it
// (docs/deploy.md, "Check it pages"). No storage, no SDK: the same code runs in the CLI and in the canary Lambda.

/** A request the check made that did not answer what the step needs: the step fails with this text. */
export class CheckFailure extends Error {}

export interface Reply {
  status: number;
  body: unknown;
  text: string;
}

/** One request's answer within this many ms (API Gateway's own limit for a Lambda's answer), or the request failed. */
const REQUEST_TIMEOUT_MS = 30_000;

export async function call(url: string, init: { method: string; key?: string; body?: unknown; headers?: Record<string, string> }): Promise<Reply> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.key) headers.authorization = `Bearer ${init.key}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method,
      headers,
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    throw new CheckFailure(`${init.method} ${new URL(url).pathname}: ${(error as Error).message}`);
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: response.status, body, text };
}

/** The API of one deployment: `api('GET', '/alerts')` calls `<base>/api/v4/alerts` with the key. */
export interface HarkApi {
  readonly baseUrl: string;
  call(method: string, path: string, body?: unknown): Promise<Reply>;
  /** As `call`, failing the step unless the status is `expected`. */
  expect<T>(expected: number, method: string, path: string, body?: unknown): Promise<T>;
}

export function harkApi(baseUrl: string, key: string): HarkApi {
  const base = baseUrl.replace(/\/+$/, '');
  const api: HarkApi = {
    baseUrl: base,
    call: (method, path, body) => call(`${base}/api/v4${path}`, { method, key, body }),
    async expect<T>(expected: number, method: string, path: string, body?: unknown): Promise<T> {
      const reply = await api.call(method, path, body);
      if (reply.status !== expected) throw new CheckFailure(`${method} /api/v4${path} answered ${reply.status}: ${errorText(reply)}`);
      return reply.body as T;
    },
  };
  return api;
}

/** The messages of Hark's JSON error body, or the start of whatever else came back. */
export function errorText(reply: Reply): string {
  const errors = (reply.body as { errors?: { message?: string }[] } | undefined)?.errors;
  if (Array.isArray(errors)) return errors.map((e) => e.message).join('; ');
  return reply.text.slice(0, 200) || '(empty body)';
}

const ENTITIES: Record<string, string> = { '&#39;': "'", '&#x27;': "'", '&quot;': '"', '&lt;': '<', '&gt;': '>', '&amp;': '&' };
const textOf = (html: string, tag: string) =>
  new RegExp(`<${tag}[^>]*>([^<]*)</${tag}>`, 'i').exec(html)?.[1]?.replace(/&(#39|#x27|quot|lt|gt|amp);/g, (entity) => ENTITIES[entity]!).trim();

/**
 * Why a signed link's POST did not act, in one line: the status, what its page says ("Not allowed: You are no longer a
 * member …"), and, when the link leads elsewhere than the deployment checked, where — a public URL (HARK_PUBLIC_URL,
 * hark:publicUrl) of another deployment signs links that its own data does not know. Pure.
 */
export function linkRefusal(reply: Reply, link: string, checkedBaseUrl: string): string {
  const heading = textOf(reply.text, 'h1');
  const said = textOf(reply.text, 'p');
  const page = heading ? `: ${heading}${said ? ` (${said})` : ''}` : '';
  const origin = new URL(link).origin;
  const elsewhere = origin === new URL(checkedBaseUrl).origin ? '' : `; the link leads to ${origin}, not to the deployment checked (${new URL(checkedBaseUrl).origin}): is the public URL links are made with (HARK_PUBLIC_URL, hark:publicUrl) another deployment's?`;
  return `POST of the Acknowledge link answered ${reply.status}${page}${elsewhere}`;
}

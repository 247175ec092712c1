// The reference command-line client's HTTP habits, for the replays of its commands (cli-*.test.ts): the headers its
// session sends with every request, JSON bodies serialised as its HTTP library does, and how it prints a failure.
import { request, type Reply } from './helpers.ts';

/** What the client's HTTP session sends with every request (besides its API key). */
export const CLI_HEADERS = { 'content-type': 'application/json', 'user-agent': 'PagerTree-Python-CLI-Client/1.0', accept: '*/*' };

/** JSON as Python's json.dumps writes it by default: `", "` and `": "` separators, non-ASCII escaped as \uXXXX. */
export function pythonJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${pythonJson(k)}: ${pythonJson(v)}`)
      .join(', ')}}`;
  }
  return JSON.stringify(value).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A client with an API key: `cli(method, path, json?)` sends one request as the reference client does. */
export const referenceCli =
  (key: () => string, base?: () => string) =>
  (method: string, path: string, json?: unknown): Promise<Reply> =>
    request(method, `/api/v4${path}`, {
      key: key(),
      headers: CLI_HEADERS,
      ...(json === undefined ? {} : { rawBody: pythonJson(json) }),
      ...(base ? { base: base() } : {}),
    });

/** `handle_api_error`: a failure shows the status and the `errors` of the JSON body. */
export const cliError = (reply: Reply) => ({ status: reply.status, errors: (reply.body as { errors?: unknown }).errors });

/** A list command's reading of the envelope: `data`, `total_count` (0 when absent) and `has_more`. */
export function cliPage(reply: Reply): { data: Record<string, any>[]; total: number } {
  if (reply.status !== 200) throw new Error(`list: ${reply.status} ${reply.text}`);
  const { data, total_count, has_more } = reply.body as { data: Record<string, any>[]; total_count: number; has_more: boolean };
  if (typeof total_count !== 'number' || typeof has_more !== 'boolean' || !Array.isArray(data)) throw new Error(`not a list envelope: ${reply.text}`);
  return { data, total: total_count };
}

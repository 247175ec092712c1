// The benchmarks' HTTP client for the local gateway: one authenticated call, and `must` for set-up calls
// that have to succeed.

export interface Reply {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- replies are read field by field, as the API documents them
  body: any;
  bytes: number;
}
export type Api = (method: string, path: string, body?: unknown) => Promise<Reply>;

export function apiClient(baseUrl: string, key: string): Api {
  return async (method, path, body) => {
    const response = await fetch(`${baseUrl}/api/v4${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined, bytes: Buffer.byteLength(text) };
  };
}

/** The reply's body; throws unless the status is `status` (any 2xx when not given). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see Reply.body
export async function must(api: Api, method: string, path: string, body?: unknown, status?: number): Promise<any> {
  const reply = await api(method, path, body);
  const ok = status === undefined ? reply.status >= 200 && reply.status < 300 : reply.status === status;
  if (!ok) throw new Error(`${method} ${path} answered ${reply.status}: ${JSON.stringify(reply.body)}`);
  return reply.body;
}

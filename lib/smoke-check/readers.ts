// Where the smoke check reads back what its canary was sent. On a deployment that is the canary's push topic on the
// ntfy server Hark publishes to: the check subscribes exactly as the person's ntfy app would, and takes the
// Acknowledge link from the message's action buttons (docs/notifications.md, "Push").
import { call, CheckFailure } from './client.ts';

/** One message the recipient holds: its title and the signed links of its buttons, by label. */
export interface ReceivedPage {
  title: string;
  links: Record<string, string>;
}

export interface PageReader {
  /** Where the pages are read, for the step's line ("push via ntfy https://ntfy.sh"). */
  readonly describe: string;
  /** The messages received since the check started (may be empty; called again until one is the check's page). */
  received(): Promise<ReceivedPage[]>;
}

interface NtfyMessage {
  event?: string;
  title?: string;
  actions?: { action?: string; label?: string; url?: string }[];
}

/**
 * Reads a topic with ntfy's poll API (`GET <server>/<topic>/json?poll=1&since=<unix seconds>`: the cached messages
 * since then, one JSON object a line), with the token when the server asks for one to read.
 */
export function ntfyReader(options: { server: string; topic: string; sinceMs: number; token?: string | undefined }): PageReader {
  const server = options.server.replace(/\/+$/, '');
  // A second earlier: ntfy's `since` is whole seconds, and the page must not be cut off by rounding.
  const since = Math.floor(options.sinceMs / 1000) - 1;
  return {
    describe: `push via ntfy ${server}`,
    async received() {
      const reply = await call(`${server}/${encodeURIComponent(options.topic)}/json?poll=1&since=${since}`, {
        method: 'GET',
        ...(options.token ? { headers: { authorization: `Bearer ${options.token}` } } : {}),
      });
      if (reply.status !== 200) throw new CheckFailure(`reading the canary's ntfy topic answered ${reply.status}: ${reply.text.slice(0, 200)}`);
      return reply.text
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as NtfyMessage)
        .filter((m) => (m.event ?? 'message') === 'message')
        .map((m) => ({ title: m.title ?? '', links: linksOf(m.actions ?? []) }));
    },
  };
}

function linksOf(actions: { label?: string; url?: string }[]): Record<string, string> {
  const links: Record<string, string> = {};
  for (const a of actions) if (a.label && a.url) links[a.label] = a.url;
  return links;
}

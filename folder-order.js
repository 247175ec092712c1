// The one order of the code's rooms (docs/architecture.md, "Layers and the import rule"; decision 0034): each
// first-level folder of lib/ (a nested folder belongs to its parent), each lib/*.ts file, functions/ and infra/.
// Top first: a room imports only rooms below it in this list. eslint.config.js enforces it on every import
// (`hark/one-direction`), .dependency-cruiser.cjs builds a rule per room from it, and
// test/unit/docs/folder-list.test.ts checks docs/architecture.md's folder list against it.

/** Layers, top first; each room below names its layer. */
export const LAYERS = ['runtime', 'transport', 'composition', 'domain', 'cores and adapters', 'basics'];

/** @type {readonly { room: string, layer: string }[]} */
export const ROOMS = [
  ...['lib/admin', 'lib/local', 'infra'].map((room) => ({ room, layer: 'runtime' })),
  ...['functions', 'lib/console', 'lib/http'].map((room) => ({ room, layer: 'transport' })),
  { room: 'lib/wiring', layer: 'composition' },
  // The domain, ordered: what composes or reacts to others above what it uses.
  ...[
    'lib/gap-check',
    'lib/ingest',
    'lib/broadcasts',
    'lib/alerts',
    'lib/delivery',
    'lib/teams',
    'lib/escalation-policies',
    'lib/notification-rules',
    'lib/routers',
    'lib/integrations',
    'lib/monitor-readers',
    'lib/webhooks',
    'lib/comments',
    'lib/calendar-feed',
    'lib/schedule-events',
    'lib/time-off',
    'lib/maintenance',
    'lib/schedules',
    'lib/activity',
    'lib/people',
    'lib/outbox',
    'lib/timers',
    'lib/auth',
    'lib/accounts',
    'lib/api-shapes',
    'lib/caller',
  ].map((room) => ({ room, layer: 'domain' })),
  ...[
    // A client of a running Hark's public API: it imports nothing of lib/.
    'lib/smoke-check',
    'lib/routing-engine',
    'lib/rule-engine',
    'lib/escalation-engine',
    'lib/schedule-engine',
    'lib/list-engine',
    'lib/time',
    'lib/channel-adapters',
    'lib/queue',
    'lib/db',
  ].map((room) => ({ room, layer: 'cores and adapters' })),
  ...[
    'lib/ids.ts',
    'lib/entity-types.ts',
    'lib/storable.ts',
    'lib/errors.ts',
    'lib/clock.ts',
    'lib/ttl-cache.ts',
    'lib/config.ts',
    'lib/config-variables.ts',
    'lib/config-messaging.ts',
    'lib/config-values.ts',
    'lib/limits.ts',
    'lib/logger.ts',
  ].map((room) => ({ room, layer: 'basics' })),
];

/** The room of a repo-relative path (`lib/alerts/store.ts` → `lib/alerts`), or undefined outside lib/, functions/, infra/. */
export function roomOf(path) {
  const parts = path.replace(/^\.\//, '').split('/');
  if (parts[0] === 'functions' || parts[0] === 'infra') return parts[0];
  if (parts[0] !== 'lib' || parts.length < 2) return undefined;
  return parts.length === 2 ? path : `lib/${parts[1]}`;
}

/** The rank of a room in ROOMS (0 = top), or -1 for a room the list does not name. */
export const rankOf = (room) => ROOMS.findIndex((r) => r.room === room);

// The import checks of `npm run lint:cycles` (docs/architecture.md, "No import cycles" and "Layers and the import rule"):
// no module of lib/, functions/ or infra/ may reach itself again through its imports, type-only imports included (a
// cycle of types is still two modules that cannot change apart); and no room may import a room above it in
// folder-order.js (one rule per room, built from that list; eslint.config.js's `hark/one-direction` checks the same).
/* global module, require */
// A CommonJS config reads the ES module list: Node's require loads it (no top-level await there).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ROOMS } = require('./folder-order.js');

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const pathOf = (rooms) => `^(${rooms.map((r) => escape(r.room)).join('|')})(/|$)`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment: 'An import cycle: break it by moving what both sides need into a module of its own, or by passing it through a port (docs/architecture.md).',
      from: {},
      to: { circular: true },
    },
    ...ROOMS.slice(1).map((room, i) => ({
      name: `one-direction:${room.room}`,
      severity: 'error',
      comment: `${room.room} imports only the rooms below it in folder-order.js (decision 0034).`,
      from: { path: pathOf([room]) },
      to: { path: pathOf(ROOMS.slice(0, i + 1)) },
    })),
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^(lib|functions|infra)/',
  },
};

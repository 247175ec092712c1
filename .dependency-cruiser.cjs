// The import cycle check of `npm run lint` (docs/architecture.md, "No import cycles"): no module of lib/, functions/ or
// infra/ may reach itself again through its imports, type-only imports included (a cycle of types is still two
// modules that cannot change apart). Layer directions are eslint.config.js's no-restricted-imports settings.
/* global module */
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
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^(lib|functions|infra)/',
  },
};

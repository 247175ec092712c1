// A layer's timeout in minutes: the engine's to know (it times layers out), and the escalation policies' resource
// uses the same rule when it checks a layer on save (lib/escalation-policies/layers.ts). Pure. Rules: docs/teams.md.

export const TIMEOUT_UNITS = ['minutes', 'hours', 'days'] as const;
export type TimeoutUnit = (typeof TIMEOUT_UNITS)[number];

const MINUTES_PER_UNIT: Record<TimeoutUnit, number> = { minutes: 1, hours: 60, days: 1440 };

export const timeoutMinutes = (layer: { readonly timeout: number; readonly timeout_unit: TimeoutUnit }): number => layer.timeout * MINUTES_PER_UNIT[layer.timeout_unit];

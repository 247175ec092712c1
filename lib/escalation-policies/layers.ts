// Escalation layers: the pure rules of `escalation_layers_attributes` (add without id, update with id,
// remove with `_destroy`), layer numbering, timeouts and colours. No I/O: ids come from the caller.
// Rules for admins: docs/teams.md.
import { timeoutMinutes, type TimeoutUnit } from '../escalation-engine/timeouts.ts';
import { MAX_LAYERS, MAX_TIMEOUT_MINUTES } from '../limits.ts';

// The timeout rule is the engine's (it times layers out); the resource checks layers with the same one.
export { TIMEOUT_UNITS, timeoutMinutes, type TimeoutUnit } from '../escalation-engine/timeouts.ts';


/** Default colours, by layer number: layer 1 gets the first, layer 9 the first again. */
export const LAYER_PALETTE = ['#E53935', '#FB8C00', '#FDD835', '#43A047', '#1E88E5', '#8E24AA', '#00ACC1', '#6D4C41'] as const;

export const COLOR_HEX = /^#[0-9A-Fa-f]{6}$/;

/** One stored layer, exactly as the API shows it. */
export interface EscalationLayer {
  id: string;
  prefix_id: string;
  account_id: string;
  layer: number;
  timeout: number;
  timeout_unit: TimeoutUnit;
  color_hex: string;
}

/** One entry of `escalation_layers_attributes`, after type validation. `color_hex: null` asks for the palette colour. */
export interface LayerAttributes {
  id?: string | undefined;
  layer?: number | undefined;
  timeout?: number | undefined;
  timeout_unit?: TimeoutUnit | undefined;
  color_hex?: string | null | undefined;
  _destroy?: boolean | undefined;
}

export interface LayerContext {
  accountId: string;
  /** Fresh id and prefix_id for an added layer. */
  newLayerIds: () => { id: string; prefix_id: string };
  /** Create: the wording of "no layers left" differs from an update. */
  creating: boolean;
}

export type MergeResult = { ok: true; layers: EscalationLayer[] } | { ok: false; problems: string[] };

export const FIELD = 'escalation_layers_attributes';

export const paletteColor = (layer: number): string => LAYER_PALETTE[(layer - 1) % LAYER_PALETTE.length]!;


/** The layers of a new team's default policy (and of a policy created without layers): 5, 10 and 15 minutes. */
export const DEFAULT_LAYER_ATTRIBUTES: readonly LayerAttributes[] = [
  { layer: 1, timeout: 5, timeout_unit: 'minutes' },
  { layer: 2, timeout: 10, timeout_unit: 'minutes' },
  { layer: 3, timeout: 15, timeout_unit: 'minutes' },
];

interface Draft {
  layer: EscalationLayer;
  /** Number still to assign (an added layer without `layer`). */
  numberless: boolean;
  /** Colour still to assign from the palette. */
  paletteColour: boolean;
  /** Index of the attributes entry that added or changed it; undefined when untouched. */
  from: number | undefined;
}

/**
 * Applies `escalation_layers_attributes` to a policy's current layers. Entries apply in order: an entry with
 * `id` (the layer's id or prefix_id) updates that layer, or removes it when `_destroy` is truthy; an entry
 * without `id` adds a layer (`timeout` required; `layer` defaults to one past the highest number; an entry
 * without id that is marked `_destroy` is skipped). The result must hold 1..MAX_LAYERS layers with distinct
 * numbers; it is sorted by layer number. All problems are reported together.
 */
export function mergeLayers(current: readonly EscalationLayer[], attributes: readonly LayerAttributes[], context: LayerContext): MergeResult {
  const problems: string[] = [];
  const drafts: Draft[] = current.map((layer) => ({ layer: { ...layer }, numberless: false, paletteColour: false, from: undefined }));
  const removed = new Set<string>();
  const named = new Map<string, number>();

  attributes.forEach((entry, index) => {
    const field = `${FIELD}[${index}]`;
    if (entry.id !== undefined) {
      const draft = drafts.find((d) => d.layer.id === entry.id || d.layer.prefix_id === entry.id);
      if (!draft) {
        problems.push(`${field}.id ${entry.id} is not a layer of this escalation policy`);
        return;
      }
      const earlier = named.get(draft.layer.id);
      if (earlier !== undefined) {
        problems.push(`${field}.id ${entry.id} names the same layer as ${FIELD}[${earlier}]`);
        return;
      }
      named.set(draft.layer.id, index);
      if (entry._destroy) {
        removed.add(draft.layer.id);
        return;
      }
      if (entry.layer !== undefined) draft.layer.layer = entry.layer;
      if (entry.timeout !== undefined) draft.layer.timeout = entry.timeout;
      if (entry.timeout_unit !== undefined) draft.layer.timeout_unit = entry.timeout_unit;
      if (entry.color_hex === null) draft.paletteColour = true;
      else if (entry.color_hex !== undefined) {
        draft.layer.color_hex = entry.color_hex.toUpperCase();
        draft.paletteColour = false;
      }
      draft.from = index;
      return;
    }
    if (entry._destroy) return;
    if (entry.timeout === undefined) {
      problems.push(`${field}.timeout is required`);
      return;
    }
    drafts.push({
      layer: {
        ...context.newLayerIds(),
        account_id: context.accountId,
        layer: entry.layer ?? 0,
        timeout: entry.timeout,
        timeout_unit: entry.timeout_unit ?? 'minutes',
        color_hex: typeof entry.color_hex === 'string' ? entry.color_hex.toUpperCase() : '',
      },
      numberless: entry.layer === undefined,
      paletteColour: typeof entry.color_hex !== 'string',
      from: index,
    });
  });

  const kept = drafts.filter((d) => !removed.has(d.layer.id));
  let highest = Math.max(0, ...kept.filter((d) => !d.numberless).map((d) => d.layer.layer));
  for (const draft of kept) if (draft.numberless) draft.layer.layer = ++highest;

  const byNumber = new Map<number, number>();
  for (const draft of kept) byNumber.set(draft.layer.layer, (byNumber.get(draft.layer.layer) ?? 0) + 1);
  for (const [number, count] of [...byNumber].sort((a, b) => a[0] - b[0])) {
    if (count > 1) problems.push(`${FIELD} gives layer number ${number} to ${count} layers; layer numbers must be unique`);
  }

  for (const draft of kept) {
    if (draft.from !== undefined && timeoutMinutes(draft.layer) > MAX_TIMEOUT_MINUTES) {
      problems.push(`${FIELD}[${draft.from}].timeout must be at most 30 days (${MAX_TIMEOUT_MINUTES} minutes, 720 hours or 30 days)`);
    }
  }

  // The count is only worth reporting when every entry was understood (a rejected entry adds no layer).
  if (problems.length > 0) return { ok: false, problems };
  if (kept.length === 0) {
    problems.push(context.creating ? `${FIELD} must add at least one layer` : `${FIELD} would remove every layer; a policy needs at least one`);
  } else if (kept.length > MAX_LAYERS) {
    problems.push(`${FIELD} would give the policy ${kept.length} layers; at most ${MAX_LAYERS} are allowed`);
  }

  if (problems.length > 0) return { ok: false, problems };
  for (const draft of kept) if (draft.paletteColour) draft.layer.color_hex = paletteColor(draft.layer.layer);
  return { ok: true, layers: kept.map((d) => d.layer).sort((a, b) => a.layer - b.layer) };
}

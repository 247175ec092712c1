import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LAYER_ATTRIBUTES,
  LAYER_PALETTE,
  mergeLayers,
  paletteColor,
  timeoutMinutes,
  type EscalationLayer,
  type LayerAttributes,
  type MergeResult,
} from '#lib/escalation-policies/layers.ts';
import { MAX_LAYERS } from '#lib/limits.ts';

function context(creating = false) {
  let n = 0;
  return {
    accountId: 'ACC',
    creating,
    newLayerIds: () => {
      n += 1;
      return { id: `NEW${n}`, prefix_id: `lyr_new${n}` };
    },
  };
}

const layer = (id: string, number: number, timeout = 5, extra: Partial<EscalationLayer> = {}): EscalationLayer => ({
  id,
  prefix_id: `lyr_${id.toLowerCase()}`,
  account_id: 'ACC',
  layer: number,
  timeout,
  timeout_unit: 'minutes',
  color_hex: '#123456',
  ...extra,
});

function layersOf(result: MergeResult): EscalationLayer[] {
  if (!result.ok) throw new Error(`expected ok, got ${result.problems.join('; ')}`);
  return result.layers;
}

function problemsOf(result: MergeResult): string[] {
  if (result.ok) throw new Error('expected problems');
  return result.problems;
}

const current = [layer('A', 1, 5), layer('B', 2, 10), layer('C', 3, 15)];

describe('mergeLayers: adding', () => {
  it('builds the default layers with ids, account, minutes and palette colours', () => {
    const layers = layersOf(mergeLayers([], DEFAULT_LAYER_ATTRIBUTES, context(true)));
    expect(layers).toEqual([
      { id: 'NEW1', prefix_id: 'lyr_new1', account_id: 'ACC', layer: 1, timeout: 5, timeout_unit: 'minutes', color_hex: LAYER_PALETTE[0] },
      { id: 'NEW2', prefix_id: 'lyr_new2', account_id: 'ACC', layer: 2, timeout: 10, timeout_unit: 'minutes', color_hex: LAYER_PALETTE[1] },
      { id: 'NEW3', prefix_id: 'lyr_new3', account_id: 'ACC', layer: 3, timeout: 15, timeout_unit: 'minutes', color_hex: LAYER_PALETTE[2] },
    ]);
  });

  it('numbers layers without a number one past the highest, in request order, and sorts by number', () => {
    const layers = layersOf(mergeLayers(current, [{ timeout: 1 }, { layer: 7, timeout: 2 }, { timeout: 3 }], context()));
    expect(layers.map((l) => [l.id, l.layer, l.timeout])).toEqual([
      ['A', 1, 5],
      ['B', 2, 10],
      ['C', 3, 15],
      ['NEW2', 7, 2],
      ['NEW1', 8, 1],
      ['NEW3', 9, 3],
    ]);
  });

  it('keeps given colours (upper-cased) and units; palette colour follows the layer number and wraps', () => {
    const layers = layersOf(
      mergeLayers([], [{ layer: 2, timeout: 1, timeout_unit: 'hours', color_hex: '#abcdef' }, { layer: 9, timeout: 2, timeout_unit: 'days' }], context(true)),
    );
    expect(layers[0]).toMatchObject({ layer: 2, timeout_unit: 'hours', color_hex: '#ABCDEF' });
    expect(layers[1]).toMatchObject({ layer: 9, timeout_unit: 'days', color_hex: LAYER_PALETTE[0] });
    expect(paletteColor(8)).toBe(LAYER_PALETTE[7]);
  });

  it('requires timeout on an added layer', () => {
    expect(problemsOf(mergeLayers(current, [{ layer: 4 }], context()))).toEqual(['escalation_layers_attributes[0].timeout is required']);
  });

  it('skips an added layer marked _destroy', () => {
    expect(layersOf(mergeLayers(current, [{ timeout: 3, _destroy: true }], context()))).toEqual(current);
  });
});

describe('mergeLayers: updating and removing', () => {
  it('updates only the given fields of the layer named by id or prefix_id', () => {
    const layers = layersOf(
      mergeLayers(current, [{ id: 'A', timeout: 2 }, { id: 'lyr_b', timeout_unit: 'hours', color_hex: '#00ff00' }], context()),
    );
    expect(layers[0]).toEqual({ ...current[0], timeout: 2 });
    expect(layers[1]).toEqual({ ...current[1], timeout_unit: 'hours', color_hex: '#00FF00' });
    expect(layers[2]).toEqual(current[2]);
  });

  it('resets a colour to the palette with color_hex null', () => {
    expect(layersOf(mergeLayers(current, [{ id: 'C', color_hex: null }], context()))[2]!.color_hex).toBe(paletteColor(3));
  });

  it('renumbers, including swapping two numbers in one request, and re-sorts', () => {
    const swapped = layersOf(mergeLayers(current, [{ id: 'A', layer: 2 }, { id: 'B', layer: 1 }], context()));
    expect(swapped.map((l) => [l.id, l.layer])).toEqual([
      ['B', 1],
      ['A', 2],
      ['C', 3],
    ]);
  });

  it('removes with a truthy _destroy and leaves the others alone', () => {
    expect(layersOf(mergeLayers(current, [{ id: 'B', _destroy: true }], context())).map((l) => l.id)).toEqual(['A', 'C']);
  });

  it('a removed layer frees its number for another layer in the same request', () => {
    const layers = layersOf(mergeLayers(current, [{ id: 'C', _destroy: true }, { layer: 3, timeout: 30 }], context()));
    expect(layers.map((l) => [l.id, l.layer, l.timeout])).toEqual([
      ['A', 1, 5],
      ['B', 2, 10],
      ['NEW1', 3, 30],
    ]);
  });

  it('rejects an id that is not a layer of this policy, and naming one layer twice', () => {
    expect(problemsOf(mergeLayers(current, [{ id: 'lyr_zzzzzzzzzzzz', timeout: 1 }], context()))).toEqual([
      'escalation_layers_attributes[0].id lyr_zzzzzzzzzzzz is not a layer of this escalation policy',
    ]);
    expect(problemsOf(mergeLayers(current, [{ id: 'A', timeout: 1 }, { id: 'lyr_a', _destroy: true }], context()))).toEqual([
      'escalation_layers_attributes[1].id lyr_a names the same layer as escalation_layers_attributes[0]',
    ]);
  });
});

describe('mergeLayers: the result', () => {
  it('rejects duplicate layer numbers, naming each number once', () => {
    expect(problemsOf(mergeLayers(current, [{ layer: 2, timeout: 1 }, { id: 'C', layer: 2 }], context()))).toEqual([
      'escalation_layers_attributes gives layer number 2 to 3 layers; layer numbers must be unique',
    ]);
  });

  it('needs at least one layer, worded for create and for update', () => {
    expect(problemsOf(mergeLayers([], [], context(true)))).toEqual(['escalation_layers_attributes must add at least one layer']);
    const all: LayerAttributes[] = current.map((l) => ({ id: l.id, _destroy: true }));
    expect(problemsOf(mergeLayers(current, all, context()))).toEqual([
      'escalation_layers_attributes would remove every layer; a policy needs at least one',
    ]);
  });

  it(`allows at most ${MAX_LAYERS} layers`, () => {
    const many = Array.from({ length: MAX_LAYERS }, () => ({ timeout: 1 }));
    expect(layersOf(mergeLayers([], many, context(true)))).toHaveLength(MAX_LAYERS);
    expect(problemsOf(mergeLayers([], [...many, { timeout: 1 }], context(true)))).toEqual([
      `escalation_layers_attributes would give the policy ${MAX_LAYERS + 1} layers; at most ${MAX_LAYERS} are allowed`,
    ]);
  });

  it('caps a timeout at 30 days whatever the unit, also when only the unit changes', () => {
    expect(layersOf(mergeLayers([], [{ timeout: 43200 }, { timeout: 720, timeout_unit: 'hours' }, { timeout: 30, timeout_unit: 'days' }], context(true)))).toHaveLength(3);
    expect(problemsOf(mergeLayers([], [{ timeout: 43201 }], context(true)))).toEqual([
      'escalation_layers_attributes[0].timeout must be at most 30 days (43200 minutes, 720 hours or 30 days)',
    ]);
    expect(problemsOf(mergeLayers([layer('X', 1, 45)], [{ id: 'X', timeout_unit: 'days' }], context()))).toEqual([
      'escalation_layers_attributes[0].timeout must be at most 30 days (43200 minutes, 720 hours or 30 days)',
    ]);
    expect(timeoutMinutes({ timeout: 2, timeout_unit: 'days' })).toBe(2880);
  });

  it('reports every problem together', () => {
    expect(problemsOf(mergeLayers(current, [{ id: 'nope' }, { layer: 1 }, { layer: 1, timeout: 1 }], context()))).toEqual([
      'escalation_layers_attributes[0].id nope is not a layer of this escalation policy',
      'escalation_layers_attributes[1].timeout is required',
      'escalation_layers_attributes gives layer number 1 to 2 layers; layer numbers must be unique',
    ]);
  });

  it('does not add a layer-count problem when a rejected entry is why no layer is left', () => {
    expect(problemsOf(mergeLayers([], [{ id: 'lyr_x', timeout: 5 }], context(true)))).toEqual([
      'escalation_layers_attributes[0].id lyr_x is not a layer of this escalation policy',
    ]);
  });

  it('does not change the layers it was given', () => {
    const before = structuredClone(current);
    mergeLayers(current, [{ id: 'A', timeout: 99 }, { id: 'B', _destroy: true }], context());
    expect(current).toEqual(before);
  });
});

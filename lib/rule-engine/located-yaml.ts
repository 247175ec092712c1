import { CORE_SCHEMA, load, YAMLException } from 'js-yaml';
import type { Path, Problem } from './problems.ts';

/** Parsed YAML plus the 1-based line of any path into it. */
export interface LocatedYaml {
  readonly value: unknown;
  lineOf(path: Path): number;
}

export type LoadResult = { ok: true; yaml: LocatedYaml } | { ok: false; problem: Problem };

/** One composeNode call of js-yaml, rebuilt from its listener events. */
interface YamlNode {
  readonly start: number;
  readonly end: number;
  readonly kind: string | null;
  readonly result: unknown;
  readonly children: YamlNode[];
}

interface Pair {
  readonly key: YamlNode;
  readonly value: YamlNode | undefined;
}

interface ListenerState {
  readonly position: number;
  readonly kind: string | null;
  readonly result: unknown;
}

/**
 * Loads with the YAML 1.2 core schema: no timestamps (so `12-25` or `2024-12-25` stay strings and can be
 * compared with `$now`), no binary, no merge keys. Duplicate keys are an error, as js-yaml does by default.
 */
export function loadLocated(text: string): LoadResult {
  const frames: { open: number; children: YamlNode[] }[] = [];
  let root: YamlNode | undefined;
  const listener = (event: 'open' | 'close', state: ListenerState) => {
    if (event === 'open') {
      frames.push({ open: state.position, children: [] });
      return;
    }
    const frame = frames.pop();
    if (!frame) return;
    const node: YamlNode = {
      start: contentStart(text, frame.open),
      end: state.position,
      kind: state.kind,
      result: state.result,
      children: frame.children,
    };
    const parent = frames.at(-1);
    if (parent) parent.children.push(node);
    else root = node;
  };
  let value: unknown;
  try {
    value = load(text, { schema: CORE_SCHEMA, listener });
  } catch (error) {
    return { ok: false, problem: yamlProblem(error, text) };
  }
  return { ok: true, yaml: { value, lineOf: root ? lineFinder(text, root) : () => 1 } };
}

function yamlProblem(error: unknown, text: string): Problem {
  if (error instanceof YAMLException) {
    // js-yaml appends a line break before reading, so an error at the very end can name a line past the text.
    const lastLine = Math.max(1, text.replace(/\r?\n$/, '').split('\n').length);
    const line = Math.min((error.mark?.line ?? 0) + 1, lastLine);
    return { line, message: `invalid YAML: ${error.reason}` };
  }
  // js-yaml recurses per nesting level, so absurd nesting ends in a RangeError rather than a YAMLException.
  return { line: 1, message: 'invalid YAML: the document is nested too deeply to read' };
}

/** js-yaml opens a node before skipping the spaces, line breaks and comments that precede its content. */
function contentStart(text: string, from: number): number {
  let i = from;
  while (i < text.length) {
    const ch = text[i];
    if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r' || ch === '\uFEFF') i++;
    else if (ch === '#') while (i < text.length && text[i] !== '\n') i++;
    else break;
  }
  return i;
}

function lineFinder(text: string, root: YamlNode): (path: Path) => number {
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') lineStarts.push(i + 1);
  const lineAt = (offset: number) => lineOfOffset(lineStarts, offset);
  const definitions = definitionsByResult(root);
  const pairsCache = new WeakMap<YamlNode, Map<string, Pair>>();
  const pairsOf = (node: YamlNode) => {
    let pairs = pairsCache.get(node);
    if (!pairs) pairsCache.set(node, (pairs = mappingPairs(text, node)));
    return pairs;
  };

  // Walks as far down the path as the nodes go; a problem about a missing key lands on its parent's line.
  return (path) => {
    let node: YamlNode | undefined = root;
    let line = lineAt(root.start);
    for (const segment of path) {
      const structure: YamlNode | undefined = node && structureOf(node, definitions);
      const step: Step | undefined = structure && stepInto(structure, segment, pairsOf, lineAt);
      if (!step) break;
      ({ line, node } = step);
    }
    return line;
  };
}

interface Step {
  readonly line: number;
  readonly node: YamlNode | undefined;
}

function stepInto(
  node: YamlNode,
  segment: string | number,
  pairsOf: (node: YamlNode) => Map<string, Pair>,
  lineAt: (offset: number) => number,
): Step | undefined {
  if (node.kind === 'mapping' && typeof segment === 'string') {
    const pair = pairsOf(node).get(segment);
    return pair && { line: lineAt(pair.key.start), node: pair.value };
  }
  if (node.kind === 'sequence' && typeof segment === 'number' && Array.isArray(node.result)) {
    // Flow sequences holding `a: b` pairs get extra child nodes; then items cannot be told apart.
    if (node.children.length !== node.result.length) return undefined;
    const item = node.children[segment];
    return item && { line: lineAt(item.start), node: item };
  }
  return undefined;
}

/** An alias node has no children of its own; its structure is the anchored node's. */
function structureOf(node: YamlNode, definitions: WeakMap<object, YamlNode>): YamlNode | undefined {
  if (node.kind === 'mapping' || node.kind === 'sequence') return node;
  if (typeof node.result === 'object' && node.result !== null) return definitions.get(node.result);
  return undefined;
}

function definitionsByResult(root: YamlNode): WeakMap<object, YamlNode> {
  const definitions = new WeakMap<object, YamlNode>();
  const visit = (node: YamlNode) => {
    for (const child of node.children) visit(child);
    const isCollection = node.kind === 'mapping' || node.kind === 'sequence';
    if (isCollection && typeof node.result === 'object' && node.result !== null) definitions.set(node.result, node);
  };
  visit(root);
  return definitions;
}

/**
 * A mapping's children are key, value, key, value... except that a flow key with no `:` (`{a, b: 1}`)
 * gets no value node; so a key owns the next child only when a `:` follows it.
 */
function mappingPairs(text: string, node: YamlNode): Map<string, Pair> {
  const pairs = new Map<string, Pair>();
  const { children } = node;
  for (let i = 0; i < children.length; i++) {
    const key = children[i];
    if (!key) break;
    const hasValue = text[contentStart(text, key.end)] === ':';
    const value = hasValue ? children[i + 1] : undefined;
    if (hasValue) i++;
    pairs.set(String(key.result), { key, value });
  }
  return pairs;
}

function lineOfOffset(lineStarts: readonly number[], offset: number): number {
  let low = 0;
  let high = lineStarts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((lineStarts[mid] ?? 0) <= offset) low = mid;
    else high = mid - 1;
  }
  return low + 1;
}

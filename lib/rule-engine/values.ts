/** A YAML mapping as js-yaml builds it: a plain object, not a list or null. */
export function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Counts the values of a YAML tree with aliases expanded, the size matching and validation really walk.
 * Returns 'cycle' for an alias inside its own anchor (`&a [*a]`), which js-yaml accepts.
 */
export function expandedSize(value: unknown, limit: number): number | 'cycle' {
  const sizes = new WeakMap<object, number>();
  const visiting = new WeakSet<object>();
  const sizeOf = (node: unknown): number | 'cycle' => {
    if (typeof node !== 'object' || node === null) return 1;
    if (visiting.has(node)) return 'cycle';
    const known = sizes.get(node);
    if (known !== undefined) return known;
    visiting.add(node);
    let total = 1;
    for (const child of Object.values(node)) {
      const size = sizeOf(child);
      if (size === 'cycle') return 'cycle';
      total += size;
      // Stop early: a few aliases can describe billions of values.
      if (total > limit) break;
    }
    visiting.delete(node);
    sizes.set(node, total);
    return total;
  };
  return sizeOf(value);
}

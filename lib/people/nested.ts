// Nested attributes (`emails_attributes`, `phones_attributes`): the Rails convention the reference API uses.
// An element with `id` changes that row (or removes it when `_destroy` is true), an element without `id` adds a
// row, rows not mentioned stay. Afterwards exactly one row is primary whenever there are rows. Pure: no I/O.

export interface NestedRow {
  id: string;
  primary: boolean;
}

export interface NestedAttribute {
  /** Where the element came from, for messages: `emails_attributes[1]`, `user_attributes.phones_attributes[0]`, `email`. */
  label: string;
  id?: string | undefined;
  primary?: boolean | undefined;
  destroy?: boolean | undefined;
}

export interface NestedSpec<R extends NestedRow, A extends NestedAttribute> {
  /** Singular noun for messages: `email`, `phone`. */
  noun: string;
  /** Name of the value field, for duplicate messages: `email`, `phone`. */
  valueField: string;
  /** Whether `id` (as the client sent it) names this row. */
  matches(row: R, id: string): boolean;
  /** A new row from an element without id, or the problems with it. */
  create(attribute: A): R | string[];
  /** The row changed by an element, or the problems with it. */
  update(row: R, attribute: A): R | string[];
  /** The value that must be unique among the rows (normalised). */
  valueOf(row: R): string;
}

export interface MergeResult<R> {
  rows: R[];
  problems: string[];
}

const article = (noun: string) => (/^[aeiou]/i.test(noun) ? 'an' : 'a');

/** Applies nested attributes to the current rows; see the module comment for the rules. */
export function mergeNested<R extends NestedRow, A extends NestedAttribute>(existing: readonly R[], attributes: readonly A[], spec: NestedSpec<R, A>): MergeResult<R> {
  const problems: string[] = [];
  let rows: R[] = existing.map((row) => ({ ...row }));
  const labelOf = new Map<string, string>();
  const touched = new Set<string>();
  const explicitPrimary: { id: string; label: string }[] = [];

  for (const attribute of attributes) {
    if (attribute.id !== undefined) {
      const at = rows.findIndex((row) => spec.matches(row, attribute.id!));
      if (at < 0) {
        problems.push(`${attribute.label}.id ${attribute.id} is not ${article(spec.noun)} ${spec.noun} of this user`);
        continue;
      }
      const row = rows[at]!;
      if (touched.has(row.id)) {
        problems.push(`${attribute.label}.id ${attribute.id} names ${article(spec.noun)} ${spec.noun} already changed by an earlier element`);
        continue;
      }
      touched.add(row.id);
      if (attribute.destroy) {
        rows = rows.filter((r) => r.id !== row.id);
        continue;
      }
      const changed = spec.update(row, attribute);
      if (Array.isArray(changed)) {
        problems.push(...changed);
        continue;
      }
      if (attribute.primary === false) changed.primary = false;
      if (attribute.primary === true) explicitPrimary.push({ id: changed.id, label: attribute.label });
      rows[at] = changed;
      labelOf.set(changed.id, attribute.label);
    } else {
      // Rails ignores a new element marked for destruction: there is nothing to remove.
      if (attribute.destroy) continue;
      const created = spec.create(attribute);
      if (Array.isArray(created)) {
        problems.push(...created);
        continue;
      }
      created.primary = false;
      if (attribute.primary === true) explicitPrimary.push({ id: created.id, label: attribute.label });
      rows.push(created);
      labelOf.set(created.id, attribute.label);
    }
  }

  // Each value once per person.
  const firstWith = new Map<string, R>();
  for (const row of rows) {
    const value = spec.valueOf(row);
    const earlier = firstWith.get(value);
    if (!earlier) {
      firstWith.set(value, row);
      continue;
    }
    const label = labelOf.get(row.id) ?? labelOf.get(earlier.id) ?? spec.valueField;
    problems.push(`${label}.${spec.valueField} ${value} is listed more than once`);
  }

  if (explicitPrimary.length > 1) {
    problems.push(`only one ${spec.noun} can be primary: ${explicitPrimary.map((p) => p.label).join(' and ')} are all marked primary`);
  }
  return { rows: settlePrimary(rows, explicitPrimary.length === 1 ? explicitPrimary[0]!.id : undefined), problems };
}

/**
 * Exactly one primary row when there are rows: the chosen one when given; otherwise the current primary stays,
 * and when there is none (it was removed or unmarked) the first row becomes primary.
 */
export function settlePrimary<R extends NestedRow>(rows: readonly R[], chosenId: string | undefined): R[] {
  if (rows.length === 0) return [];
  const keep = chosenId !== undefined && rows.some((r) => r.id === chosenId) ? chosenId : rows.find((r) => r.primary)?.id ?? rows[0]!.id;
  return rows.map((row) => ({ ...row, primary: row.id === keep }));
}

/** A place in the parsed YAML: mapping keys and sequence indexes from the root. */
export type Path = ReadonlyArray<string | number>;

/** One reason a rules document was refused; `line` is 1-based. */
export interface Problem {
  readonly line: number;
  readonly message: string;
}

/**
 * Validators report against paths so they stay independent of YAML; lines are looked up afterwards. `onSaveOnly`
 * marks checks a write makes that evaluation does not need (the linear-time regex engine's syntax, template
 * limits): a document stored before them still runs (docs/rules.md, "Checked on save, tolerated when stored").
 */
export type Report = (path: Path, message: string, onSaveOnly?: boolean) => void;

/** The text an API error carries, e.g. `line 4: unknown action type "asign"`. */
export const problemText = (problem: Problem): string => `line ${problem.line}: ${problem.message}`;

/** Sorted by line, each message once, so the admin reads them top-down. */
export function sortedProblems(problems: readonly Problem[]): Problem[] {
  const seen = new Set<string>();
  const unique = problems.filter((p) => {
    const key = problemText(p);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return unique.sort((a, b) => a.line - b.line);
}

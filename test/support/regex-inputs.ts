// The texts JavaScript's own (backtracking) RegExp engine ran over while `work` ran, by length: a check that a long
// input was handled by a linear loop or RE2 counts the work where it is done instead of timing it
// (docs/testing.md, "Budgets, not timings"). RegExp.prototype.exec is what test, match, replace and split call.

export function regexInputsDuring(work: () => void): number[] {
  const lengths: number[] = [];
  const exec = RegExp.prototype.exec;
  RegExp.prototype.exec = function (this: RegExp, text: string) {
    lengths.push(String(text).length);
    return exec.call(this, text);
  };
  try {
    work();
  } finally {
    RegExp.prototype.exec = exec;
  }
  return lengths;
}

// The hot paths' recorded figures: docs/benchmarks.md keeps, under "Recorded hot-path ratios", one row per hot path
// (endpoint rate ÷ raw rate, measured in one run). A bench that measures a hot path prints its figure next to the
// recorded one and says, in a line a person reads, when it is more than 15 % slower. Never a failing test: speed on a
// shared machine is noise, a line is a prompt to look (docs/benchmarks.md).
import { readFileSync } from 'node:fs';

/** A measured ratio this much below the recorded one is reported as slower. */
export const SLOWER_THAN_RECORDED = 0.15;
const HEADING = '### Recorded hot-path ratios';

/** The recorded ratios by hot path name, from the section's table (`| name | ratio | … |`). Pure. */
export function recordedRatios(markdown: string): Map<string, number> {
  const start = markdown.indexOf(HEADING);
  const figures = new Map<string, number>();
  if (start < 0) return figures;
  const section = markdown.slice(start + HEADING.length).split(/\n#{2,3} /)[0]!;
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    const ratio = Number(cells[2]?.replace(/\*/g, ''));
    if (cells.length >= 4 && cells[1] && !cells[1].startsWith('-') && Number.isFinite(ratio) && ratio > 0) figures.set(cells[1].replace(/`/g, ''), ratio);
  }
  return figures;
}

/** The line comparing one measured ratio with the recorded one. Pure. */
export function comparedLine(name: string, measured: number, recorded: number | undefined): string {
  if (recorded === undefined) return `${name}: ${measured.toFixed(2)} (no recorded figure in docs/benchmarks.md)`;
  const change = measured / recorded - 1;
  const verdict =
    change < -SLOWER_THAN_RECORDED
      ? `SLOWER than recorded by ${Math.round(-change * 100)} % (more than ${SLOWER_THAN_RECORDED * 100} %): look for a regression`
      : `within ${SLOWER_THAN_RECORDED * 100} % of the recorded figure or faster (${change >= 0 ? '+' : ''}${Math.round(change * 100)} %)`;
  return `${name}: ${measured.toFixed(2)} measured, ${recorded.toFixed(2)} recorded — ${verdict}`;
}

/** Prints each measured hot path next to its recorded figure. */
export function printAgainstRecorded(measured: readonly { name: string; ratio: number }[]): void {
  let markdown = '';
  try {
    markdown = readFileSync(new URL('../docs/benchmarks.md', import.meta.url), 'utf8');
  } catch {
    // No docs beside the bench (a copied bench): every figure reads "no recorded figure".
  }
  const recorded = recordedRatios(markdown);
  console.log('\nAgainst the figures recorded in docs/benchmarks.md ("Recorded hot-path ratios"; endpoint rate ÷ raw rate):');
  for (const { name, ratio } of measured) console.log(`  ${comparedLine(name, ratio, recorded.get(name))}`);
}

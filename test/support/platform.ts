// A test that needs something of the platform (Linux's /proc, a network address): where it is missing the test fails
// under CI=true (CI must run everything) and is skipped elsewhere with the reason printed, never passed silently
// (docs/testing.md, "Tests that need the platform").

export const inCi = process.env.CI === 'true';

export interface PlatformNeed {
  /** For `it.skipIf`: missing here, and not in CI. */
  skip: boolean;
  /** First line of the test: fails it, saying what is missing, when the need is not met (in CI). */
  require: () => void;
}

export function platformNeed(available: boolean, missing: string): PlatformNeed {
  const skip = !available && !inCi;
  if (skip) console.warn(`Skipped (set CI=true to make this a failure): ${missing}`);
  return {
    skip,
    require: () => {
      if (!available) throw new Error(`${missing}; CI=true requires it`);
    },
  };
}

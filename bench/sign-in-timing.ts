// POST /sign-in for known and unknown addresses, one of each in turn (docs/benchmarks.md, "Console alert lists"): the request
// does the same work whatever the address, so the medians should be within 10 %. Each request comes from its own
// loopback address and each known address is asked for at most 5 times, so no limit answers instead.
import { request } from 'node:http';
import { SIGN_IN_LINKS_PER_ADDRESS } from '#lib/limits.ts';
import { summarise, type Timing } from './timing.ts';

const ROUNDS = 4;
const RUNS_PER_ROUND = 30;
const WARMUP = 5;

let sources = 0;
/** A loopback source address of its own for each request (127.0.0.0/8 is all loopback on Linux). */
const nextSource = () => {
  sources += 1;
  return `127.${100 + ((sources >> 16) & 63)}.${(sources >> 8) & 255}.${(sources & 255) || 1}`;
};

function postSignIn(baseUrl: string, email: string): Promise<void> {
  const body = new URLSearchParams({ email }).toString();
  return new Promise((resolve, reject) => {
    const req = request(
      new URL('/sign-in', baseUrl),
      { method: 'POST', localAddress: nextSource(), headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(Buffer.byteLength(body)) } },
      (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`POST /sign-in answered ${res.statusCode}`))));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The medians of POST /sign-in for people `addPerson` adds to an account and for addresses nobody has. */
export async function signInTimings(baseUrl: string, addPerson: (email: string) => Promise<unknown>): Promise<{ known: Timing; unknown: Timing }> {
  const runs = ROUNDS * RUNS_PER_ROUND + WARMUP + 10;
  const people = Math.ceil(runs / SIGN_IN_LINKS_PER_ADDRESS);
  const knownAddresses: string[] = [];
  for (let i = 0; i < people; i++) {
    const email = `signin-bench-${Date.now()}-${i}@example.test`;
    await addPerson(email);
    knownAddresses.push(email);
  }
  let k = 0;
  let u = 0;
  const known = () => postSignIn(baseUrl, knownAddresses[Math.floor(k++ / SIGN_IN_LINKS_PER_ADDRESS)]!);
  const unknown = () => postSignIn(baseUrl, `nobody-${Date.now()}-${u++}@example.test`);
  for (let i = 0; i < WARMUP; i++) {
    await known();
    await unknown();
  }
  // One request of each kind in turn, the order swapped every pair, as someone probing addresses would send them:
  // the background work a known address causes (its link delivered after the answer) falls on whichever request comes
  // next, not on a block of known ones.
  const times = { known: [] as number[], unknown: [] as number[] };
  const wall = { known: 0, unknown: 0 };
  const timed = async (kind: 'known' | 'unknown') => {
    const t0 = performance.now();
    await (kind === 'known' ? known() : unknown());
    const ms = performance.now() - t0;
    times[kind].push(ms);
    wall[kind] += ms;
  };
  for (let i = 0; i < ROUNDS * RUNS_PER_ROUND; i++) {
    const first = i % 2 === 0 ? 'known' : 'unknown';
    await timed(first);
    await timed(first === 'known' ? 'unknown' : 'known');
  }
  const knownTiming = summarise(times.known, wall.known, 1);
  const unknownTiming = summarise(times.unknown, wall.unknown, 1);
  return { known: knownTiming, unknown: unknownTiming };
}

// Which addresses an outgoing webhook may reach (docs/outgoing-webhooks.md, "Where Hark sends"): pure rules
// over parsed IP addresses, so test/unit/webhooks checks them without DNS.
import ipaddr from 'ipaddr.js';

export interface AddressPolicy {
  /** The local runtime: loopback receivers are allowed (a developer's own machine). */
  allowLoopback: boolean;
  /** HARK_WEBHOOK_ALLOWED_HOSTS: host names and CIDR ranges allowed even though private. */
  allowed: readonly string[];
}

const cidrs = (allowed: readonly string[]) =>
  allowed.filter((entry) => entry.includes('/') && ipaddr.isValidCIDR(entry)).map((entry) => ipaddr.parseCIDR(entry));

const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');
const IPV4_TRANSLATED = ipaddr.parseCIDR('::ffff:0:0:0/96');
const NAT64 = ipaddr.parseCIDR('64:ff9b::/96');
const NAT64_LOCAL = ipaddr.parseCIDR('64:ff9b:1::/48');
const SIX_TO_FOUR = ipaddr.parseCIDR('2002::/16');

/** Where RFC 6052 puts the IPv4 address (its bytes) for each prefix length a local-use NAT64 prefix may have. */
const NAT64_LOCAL_POSITIONS = [
  [6, 7, 9, 10], // /48
  [7, 9, 10, 11], // /56
  [9, 10, 11, 12], // /64
  [12, 13, 14, 15], // /96
];

interface Carried {
  /** How the IPv6 address carries an IPv4 address, in words, with its article. */
  form: string;
  /** The IPv4 addresses it may lead to (a local-use NAT64 prefix leaves the position open, so each is checked). */
  ipv4: ipaddr.IPv4[];
  /** A form no public receiver uses (deprecated or translation-only): refused whatever it carries. */
  refused: boolean;
}

const ipv4At = (bytes: number[], positions: readonly number[]) => new ipaddr.IPv4(positions.map((i) => bytes[i]!));

/** The IPv4 address(es) an IPv6 address leads to, for the forms that embed one; undefined for any other address. */
function carriedIPv4(address: ipaddr.IPv6): Carried | undefined {
  const bytes = address.toByteArray();
  const last = [12, 13, 14, 15];
  if (address.match(NAT64)) return { form: 'a NAT64', ipv4: [ipv4At(bytes, last)], refused: false };
  if (address.match(NAT64_LOCAL)) return { form: 'a local-use NAT64', ipv4: NAT64_LOCAL_POSITIONS.map((at) => ipv4At(bytes, at)), refused: false };
  if (address.match(SIX_TO_FOUR)) return { form: 'a 6to4', ipv4: [ipv4At(bytes, [2, 3, 4, 5])], refused: false };
  if (address.match(IPV4_TRANSLATED)) return { form: 'an IPv4-translated', ipv4: [ipv4At(bytes, last)], refused: true };
  // ::/96 holds :: and ::1 too, which are the unspecified and loopback addresses, not IPv4-compatible ones.
  if (address.match(IPV4_COMPATIBLE) && address.range() !== 'loopback' && address.range() !== 'unspecified') {
    return { form: 'an IPv4-compatible', ipv4: [ipv4At(bytes, last)], refused: true };
  }
  return undefined;
}

/** Why an IPv6 address (not IPv4-mapped) is not a receiver under the policy, or undefined when it is. */
function ipv6Refusal(address: ipaddr.IPv6, host: string, policy: AddressPolicy): string | undefined {
  const text = address.toString();
  const carried = carriedIPv4(address);
  if (carried) {
    const inner = carried.ipv4.find((ipv4) => ipv4.range() !== 'unicast');
    if (inner) return `${host} resolves to ${text}, ${carried.form} address of ${inner.toString()}, a ${inner.range()} address`;
    if (carried.refused) return `${host} resolves to ${text}, ${carried.form} address (not global unicast)`;
    return undefined;
  }
  const range = address.range();
  if (range === 'loopback' && policy.allowLoopback) return undefined;
  if (range !== 'unicast') return `${host} resolves to ${text}, a ${range} address`;
  if (!address.match(GLOBAL_UNICAST)) return `${host} resolves to ${text}, an address outside global unicast (2000::/3)`;
  return undefined;
}

/**
 * An IPv6 address ending in dotted IPv4 text as the URL standard (and node) reads it: ipaddr.js reads `::10.0.0.1` as
 * `::ffff:10.0.0.1`, but it is the IPv4-compatible `::a00:1`. Other text is returned as it is.
 */
function canonicalText(address: string): string {
  if (!address.includes(':') || !address.includes('.') || address.includes('%')) return address;
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return address;
  }
}

/** Why `address` may not be reached under `policy`, or undefined when it may. `host` is the URL's host name. */
export function refusalOf(address: string, host: string, policy: AddressPolicy): string | undefined {
  if (!ipaddr.isValid(address)) return `"${address}" is not an IP address`;
  let parsed = ipaddr.parse(canonicalText(address));
  // An IPv4 address written as IPv6 (::ffff:10.0.0.1) is judged as the IPv4 address it is.
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  if (policy.allowed.some((entry) => entry.toLowerCase() === host.toLowerCase())) return undefined;
  if (cidrs(policy.allowed).some(([range, bits]) => range.kind() === parsed.kind() && parsed.match(range, bits))) return undefined;
  if (parsed.kind() === 'ipv6') return ipv6Refusal(parsed as ipaddr.IPv6, host, policy);
  // Only global unicast is a public receiver: private, loopback, link-local (the cloud metadata service),
  // carrier-grade NAT, multicast and every reserved range are refused.
  const range = parsed.range();
  if (range === 'unicast') return undefined;
  if (range === 'loopback' && policy.allowLoopback) return undefined;
  return `${host} resolves to ${parsed.toString()}, a ${range} address`;
}

/**
 * Whether an address is a public receiver's (reachable under the strictest policy): the delivery log keeps only a
 * public receiver's answer, never a loopback or private service's (docs/outgoing-webhooks.md, "The delivery log").
 */
export const isPublicAddress = (address: string | undefined): boolean =>
  address !== undefined && ipaddr.isValid(address) && refusalOf(address, address, { allowLoopback: false, allowed: [] }) === undefined;

/** Whether a URL host is an IP literal (brackets of IPv6 removed). */
export const literalAddress = (hostname: string): string | undefined => {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) && (bare.includes(':') || ipaddr.IPv4.isValidFourPartDecimal(bare)) ? bare : undefined;
};

/** Whether a URL host names the local machine (loopback literal or `localhost`). */
export const isLoopbackHost = (hostname: string): boolean => {
  if (hostname.toLowerCase() === 'localhost') return true;
  const literal = literalAddress(hostname);
  return literal !== undefined && ipaddr.parse(literal).range() === 'loopback';
};

/**
 * The URL rule of a subscription: https; http only to loopback in the local runtime; no credentials; an IP literal
 * must be reachable under the policy. Returns the problem, or undefined.
 */
export function urlProblem(raw: string, policy: AddressPolicy): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'url must be an absolute http(s) URL';
  }
  if (url.username || url.password) return 'url must not hold a user name or password';
  if (url.protocol === 'http:') {
    if (!(policy.allowLoopback && isLoopbackHost(url.hostname))) return 'url must use https (http only to loopback in the local runtime)';
  } else if (url.protocol !== 'https:') return 'url must use https';
  const literal = literalAddress(url.hostname);
  if (literal) {
    const refusal = refusalOf(literal, literal, policy);
    if (refusal) return `url must not point at a private, loopback or link-local address (${refusal})`;
  }
  return undefined;
}

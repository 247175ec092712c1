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

/** Why `address` may not be reached under `policy`, or undefined when it may. `host` is the URL's host name. */
export function refusalOf(address: string, host: string, policy: AddressPolicy): string | undefined {
  if (!ipaddr.isValid(address)) return `"${address}" is not an IP address`;
  let parsed = ipaddr.parse(address);
  // An IPv4 address written as IPv6 (::ffff:10.0.0.1) is judged as the IPv4 address it is.
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  if (policy.allowed.some((entry) => entry.toLowerCase() === host.toLowerCase())) return undefined;
  if (cidrs(policy.allowed).some(([range, bits]) => range.kind() === parsed.kind() && parsed.match(range, bits))) return undefined;
  // Only global unicast is a public receiver: private, loopback, link-local (the cloud metadata service),
  // unique-local, carrier-grade NAT, multicast and every reserved range are refused.
  const range = parsed.range();
  if (range === 'unicast') return undefined;
  if (range === 'loopback' && policy.allowLoopback) return undefined;
  return `${host} resolves to ${parsed.toString()}, a ${range} address`;
}

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

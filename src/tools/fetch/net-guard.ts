/**
 * The network guard for fetch: which addresses are off limits (loopback, private, link-local, CGNAT,
 * unspecified, multicast, and IPv6 forms that embed such an IPv4 address), checked after DNS resolution.
 * Pure functions plus one injectable lookup.
 */

import { lookup as dnsLookup } from "node:dns/promises";
import { isIP } from "node:net";

/** Resolves a host name to every address it has (injectable for tests). */
export type LookupAll = (hostname: string) => Promise<string[]>;

export const systemLookup: LookupAll = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/** [first address, prefix length] of the forbidden IPv4 ranges. */
const FORBIDDEN_V4: [string, number][] = [
  ["0.0.0.0", 8], // "this network", includes 0.0.0.0
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, cloud metadata
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
];

/**
 * True for addresses fetch must not reach: loopback, private, link-local, CGNAT, unspecified, multicast,
 * unique-local and link-local IPv6, and IPv6 forms embedding a forbidden IPv4 address (IPv4-mapped,
 * IPv4-compatible, NAT64, 6to4). Anything that is not an IP address is refused too.
 */
export function isForbiddenAddress(ip: string): boolean {
  const bare = ip.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const kind = isIP(bare);
  if (kind === 4) return isForbiddenV4(ipv4ToInt(bare));
  if (kind === 6) return isForbiddenV6(parseIpv6(bare));
  return true;
}

function isForbiddenV4(value: number): boolean {
  return FORBIDDEN_V4.some(([base, bits]) => {
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    return (value & mask) >>> 0 === (ipv4ToInt(base) & mask) >>> 0;
  });
}

function isForbiddenV6(h: number[]): boolean {
  const [h0 = 0, h1 = 0, h2 = 0, h3 = 0, h4 = 0, h5 = 0, h6 = 0, h7 = 0] = h;
  const embedded = ((h6 << 16) | h7) >>> 0;
  const firstFiveZero = h0 === 0 && h1 === 0 && h2 === 0 && h3 === 0 && h4 === 0;
  if (firstFiveZero && h5 === 0 && h6 === 0 && (h7 === 0 || h7 === 1)) return true; // :: and ::1
  if (firstFiveZero && (h5 === 0xffff || h5 === 0)) return isForbiddenV4(embedded); // ::ffff:a.b.c.d, ::a.b.c.d
  if (h0 === 0x64 && h1 === 0xff9b && h2 === 0 && h3 === 0 && h4 === 0 && h5 === 0)
    return isForbiddenV4(embedded); // NAT64
  if (h0 === 0x2002) return isForbiddenV4(((h1 << 16) | h2) >>> 0); // 6to4
  if ((h0 & 0xfe00) === 0xfc00) return true; // fc00::/7 unique local
  if ((h0 & 0xffc0) === 0xfe80) return true; // fe80::/10 link-local
  if ((h0 & 0xffc0) === 0xfec0) return true; // fec0::/10 old site-local
  if ((h0 & 0xff00) === 0xff00) return true; // multicast
  return false;
}

function ipv4ToInt(ip: string): number {
  return ip.split(".").reduce((acc, part) => ((acc << 8) | Number(part)) >>> 0, 0);
}

/** Eight 16-bit groups of a valid IPv6 address (handles `::` and a trailing dotted IPv4 part). */
function parseIpv6(ip: string): number[] {
  let text = ip.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const v4 = ipv4ToInt(dotted[1]);
    text = `${text.slice(0, -dotted[1].length)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const headParts = head === "" ? [] : head.split(":");
  const tailParts = tail === undefined || tail === "" ? [] : tail.split(":");
  const zeros = tail === undefined ? 0 : 8 - headParts.length - tailParts.length;
  return [...headParts, ...Array<string>(zeros).fill("0"), ...tailParts].map((g) => Number.parseInt(g, 16));
}

/** A URL fetch refused to reach; the message names the host and the address. */
export class ForbiddenAddressError extends Error {
  override name = "ForbiddenAddressError";
}

/**
 * Checks that `hostname` (as in a URL, IPv6 in brackets) resolves only to allowed addresses, unless an
 * allow rule names the host. Returns the resolved addresses, so the caller can connect to one of them
 * rather than resolve again. Throws ForbiddenAddressError otherwise.
 */
export async function checkHost(
  hostname: string,
  options: { allowHosts?: readonly string[]; lookup?: LookupAll } = {},
): Promise<string[]> {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, "");
  const allowed = (options.allowHosts ?? []).map((h) => h.toLowerCase().replace(/^\[|\]$/g, ""));
  const addresses = isIP(host) ? [host] : await (options.lookup ?? systemLookup)(host);
  if (addresses.length === 0) throw new ForbiddenAddressError(`${host} did not resolve to any address`);
  if (allowed.includes(host)) return addresses;
  const bad = addresses.find(isForbiddenAddress);
  if (bad !== undefined) {
    const shown = bad === host ? host : `${host} (${bad})`;
    throw new ForbiddenAddressError(
      `refusing to fetch ${shown}: loopback, private and link-local addresses are off limits ` +
        "unless an allow rule names the host",
    );
  }
  return addresses;
}

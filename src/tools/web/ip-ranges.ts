import { isIP } from "node:net";

/**
 * Address ranges a fetch never reaches unless config allows them: everything that is not a
 * global unicast address (IANA's special-purpose registries). Cloud metadata services sit in
 * link-local (169.254.169.254, fd00:ec2::254) and carrier-grade NAT (100.100.100.200) space.
 */
const V4_RANGES: ReadonlyArray<readonly [string, number, string]> = [
  ["0.0.0.0", 8, "unspecified"],
  ["10.0.0.0", 8, "private"],
  ["100.64.0.0", 10, "shared (carrier-grade NAT)"],
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "link-local"],
  ["172.16.0.0", 12, "private"],
  ["192.0.0.0", 24, "reserved"],
  ["192.0.2.0", 24, "documentation"],
  ["192.88.99.0", 24, "reserved"],
  ["192.168.0.0", 16, "private"],
  ["198.18.0.0", 15, "benchmarking"],
  ["198.51.100.0", 24, "documentation"],
  ["203.0.113.0", 24, "documentation"],
  ["224.0.0.0", 4, "multicast"],
  ["240.0.0.0", 4, "reserved"],
];

const V6_RANGES: ReadonlyArray<readonly [string, number, string]> = [
  ["::", 128, "unspecified"],
  ["::1", 128, "loopback"],
  ["::", 96, "reserved"],
  ["64:ff9b:1::", 48, "reserved"],
  ["100::", 64, "reserved"],
  ["2001::", 23, "reserved"],
  ["2001:db8::", 32, "documentation"],
  ["fc00::", 7, "private"],
  ["fe80::", 10, "link-local"],
  ["fec0::", 10, "private"],
  ["ff00::", 8, "multicast"],
];

/** An address as its family and 32-bit words (one for IPv4, four for IPv6). */
export interface ParsedAddress {
  family: 4 | 6;
  words: number[];
}

export function parseAddress(text: string): ParsedAddress | undefined {
  const address = text.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const family = isIP(address);
  if (family === 4) return { family: 4, words: [v4Word(address)] };
  if (family !== 6) return undefined;
  const hextets = v6Hextets(address);
  if (!hextets) return undefined;
  const words = [0, 2, 4, 6].map(
    (i) => ((hextets[i] as number) * 0x10000 + (hextets[i + 1] as number)) >>> 0,
  );
  return { family: 6, words };
}

/**
 * The IPv4 address an IPv6 one stands for where the network forwards it to IPv4: mapped
 * (`::ffff:a.b.c.d`), NAT64 (`64:ff9b::/96`) and 6to4 (`2002::/16`); else the address itself.
 */
export function effectiveAddress(address: ParsedAddress): ParsedAddress {
  if (address.family === 4) return address;
  const [a, b, c, d] = address.words as [number, number, number, number];
  if (a === 0 && b === 0 && c === 0xffff) return { family: 4, words: [d] };
  if (a === 0x0064ff9b && b === 0 && c === 0) return { family: 4, words: [d] };
  if (a >>> 16 === 0x2002) return { family: 4, words: [(((a & 0xffff) << 16) | (b >>> 16)) >>> 0] };
  return address;
}

/** What kind of special address this is ("loopback", "private", …), undefined for a global one. */
export function specialRange(address: ParsedAddress): string | undefined {
  const effective = effectiveAddress(address);
  const ranges = effective.family === 4 ? V4_RANGES : V6_RANGES;
  for (const [base, prefix, label] of ranges) {
    if (inRange(effective, parseAddress(base) as ParsedAddress, prefix)) return label;
  }
  return undefined;
}

/** Whether `address` lies in `base/prefix` (same family; IPv6 ranges also see the IPv6 form of a forwarded address). */
export function inRange(address: ParsedAddress, base: ParsedAddress, prefix: number): boolean {
  if (address.family !== base.family) return false;
  let bits = prefix;
  for (let i = 0; i < address.words.length && bits > 0; i++) {
    const take = Math.min(32, bits);
    const mask = take === 32 ? 0xffffffff : (0xffffffff << (32 - take)) >>> 0;
    if (((address.words[i] as number) & mask) >>> 0 !== ((base.words[i] as number) & mask) >>> 0)
      return false;
    bits -= take;
  }
  return true;
}

export function sameAddress(a: ParsedAddress, b: ParsedAddress): boolean {
  return a.family === b.family && a.words.every((word, i) => word === b.words[i]);
}

function v4Word(address: string): number {
  return address.split(".").reduce((word, part) => ((word << 8) | Number(part)) >>> 0, 0);
}

/** Eight 16-bit groups of a valid IPv6 text (`::` expanded, a trailing dotted quad folded in). */
function v6Hextets(address: string): number[] | undefined {
  let text = address.toLowerCase();
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (quad) {
    const word = v4Word(quad[1] as string);
    text = `${text.slice(0, quad.index)}${(word >>> 16).toString(16)}:${(word & 0xffff).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const left = head === "" ? [] : head.split(":");
  const right = tail === undefined || tail === "" ? [] : tail.split(":");
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 1) return undefined;
  return [...left, ...Array<string>(Math.max(0, missing)).fill("0"), ...right].map((group) =>
    Number.parseInt(group, 16),
  );
}

import type { LookupFunction } from "node:net";
import type { PrivateAllowance, WebConfig } from "../../config/types.js";
import {
  effectiveAddress,
  inRange,
  type ParsedAddress,
  parseAddress,
  sameAddress,
  specialRange,
} from "./ip-ranges.js";
import type { FetchFailure, Resolved } from "./types.js";

/** Thrown from the guarded lookup; reaches the fetch as the request's error. */
export class FetchRefused extends Error {
  constructor(readonly failure: FetchFailure) {
    super(`fetch refused: ${failure.kind}`);
    this.name = "FetchRefused";
  }
}

/** The URL's host as the checks compare it: lower case, IPv6 without brackets. */
export function hostOf(url: URL): string {
  return url.hostname.toLowerCase().replace(/^\[|\]$/g, "");
}

export function portOf(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
}

/** Names that always mean this machine (RFC 6761), refused before any lookup. */
function loopbackName(host: string): boolean {
  const name = host.replace(/\.$/, "");
  return name === "localhost" || name.endsWith(".localhost");
}

/**
 * The checks that need no lookup: a loopback name, and an IP-literal host in a special range
 * (Node does not consult `lookup` for a literal). Undefined when the host may be tried.
 */
export function refuseHost(url: URL, config: WebConfig): FetchFailure | undefined {
  const host = hostOf(url);
  const port = portOf(url);
  if (loopbackName(host) && !allowedByName(config.allowPrivate, host, port))
    return { kind: "blocked-host", host };
  const literal = parseAddress(host);
  if (!literal) return undefined;
  return addressRefusal({ config, host, port, address: literal, text: host, literal: true });
}

/**
 * Node's `lookup` for one fetch: resolves the name, refuses when any answer is a special-purpose
 * address that config does not allow, and hands Node exactly the addresses it checked.
 */
export function guardedLookup(o: {
  url: URL;
  config: WebConfig;
  resolve(host: string): Promise<Resolved>;
}): LookupFunction {
  const host = hostOf(o.url);
  const port = portOf(o.url);
  return (hostname, options, callback) => {
    const done = callback as (error: Error | null, address?: unknown, family?: number) => void;
    o.resolve(hostname).then(
      (answers) => {
        const wanted = options.family === 4 || options.family === 6 ? options.family : undefined;
        const usable = answers.filter((a) => wanted === undefined || a.family === wanted);
        for (const answer of usable) {
          const parsed = parseAddress(answer.address);
          const refusal = parsed
            ? addressRefusal({
                config: o.config,
                host,
                port,
                address: parsed,
                text: answer.address,
                literal: false,
              })
            : ({ kind: "dns", host, message: `unusable address ${answer.address}` } as const);
          if (refusal) return done(new FetchRefused(refusal));
        }
        const first = usable[0];
        if (!first)
          return done(new FetchRefused({ kind: "dns", host, message: `no address for ${hostname}` }));
        if (options.all) return done(null, usable);
        return done(null, first.address, first.family);
      },
      (error: unknown) =>
        done(
          new FetchRefused({
            kind: "dns",
            host,
            message: error instanceof Error ? error.message : String(error),
          }),
        ),
    );
  };
}

function addressRefusal(o: {
  config: WebConfig;
  host: string;
  port: number;
  address: ParsedAddress;
  text: string;
  literal: boolean;
}): FetchFailure | undefined {
  const range = specialRange(o.address);
  if (range === undefined) return undefined;
  if (allowedAddress(o.config.allowPrivate, o)) return undefined;
  return { kind: "blocked-address", host: o.host, address: o.text, range, literal: o.literal };
}

/** An entry for the host's name, the address or a range holding it, and the port if the entry has one. */
function allowedAddress(
  allowances: PrivateAllowance[],
  o: { host: string; port: number; address: ParsedAddress },
): boolean {
  const effective = effectiveAddress(o.address);
  return allowances.some((entry) => {
    if (entry.kind === "host") return entry.name === o.host && portMatches(entry.port, o.port);
    const base = parseAddress(entry.address);
    if (!base) return false;
    if (entry.kind === "range")
      return inRange(o.address, base, entry.prefix) || inRange(effective, base, entry.prefix);
    return (sameAddress(o.address, base) || sameAddress(effective, base)) && portMatches(entry.port, o.port);
  });
}

function allowedByName(allowances: PrivateAllowance[], host: string, port: number): boolean {
  return allowances.some(
    (entry) => entry.kind === "host" && entry.name === host && portMatches(entry.port, port),
  );
}

function portMatches(wanted: number | undefined, port: number): boolean {
  return wanted === undefined || wanted === port;
}

/** `allowed_hosts` patterns: `example.com` is that host, `*.example.com` any name below it. */
export function hostListed(patterns: readonly string[], host: string): boolean {
  return patterns.some((pattern) =>
    pattern.startsWith("*.") ? host.endsWith(pattern.slice(1)) : pattern === host,
  );
}

/**
 * Whether `[web] allow_private` names the URL's host itself (its name, or its literal address
 * or a range holding it), before any lookup: such hosts are the user's own servers.
 */
export function privateHostAllowed(url: URL, config: WebConfig): boolean {
  const host = hostOf(url);
  const port = portOf(url);
  if (allowedByName(config.allowPrivate, host, port)) return true;
  const literal = parseAddress(host);
  return literal !== undefined && allowedAddress(config.allowPrivate, { host, port, address: literal });
}

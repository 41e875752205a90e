import type { FetchFailure } from "./types.js";

/**
 * Our wording of a failed fetch, for harnesses whose original has no text of its own for it
 * (Claude Code never refuses an address: Anthropic's service vets the domain first). Network
 * failures keep Node's message, as the originals show it.
 */
export function failureText(failure: FetchFailure, url: string): string {
  switch (failure.kind) {
    case "invalid-url":
      return `Invalid URL: ${failure.input}`;
    case "scheme":
      return `Unsupported protocol ${failure.protocol}`;
    case "blocked-host":
      return `Refusing to fetch ${url}: ${failure.host} names this machine. Loopback, private, link-local and metadata addresses are fetched only where [web] allow_private in the config allows them.`;
    case "blocked-address": {
      const what = failure.literal
        ? `${failure.host} is a ${failure.range} address`
        : `${failure.host} resolves to the ${failure.range} address ${failure.address}`;
      return `Refusing to fetch ${url}: ${what}. Loopback, private, link-local and metadata addresses are fetched only where [web] allow_private in the config allows them.`;
    }
    case "dns":
      return failure.message;
    case "too-large":
      return `maxContentLength size of ${failure.limit} exceeded`;
    case "too-many-redirects":
      return `Too many redirects (more than ${failure.limit})`;
    case "timeout":
      return `timeout of ${failure.ms}ms exceeded`;
    case "aborted":
      return "aborted";
    case "network":
      return failure.message;
  }
}

import type { LookupFunction } from "node:net";
import type { WebConfig, WebSearchConfig } from "../../config/types.js";

/** One HTTP exchange, no redirect followed (`webExchange` in src/providers, injected by the session). */
export interface WebRequest {
  url: URL;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
  maxBytes: number;
  /** Decides the address the connection goes to; unset: the system resolver. */
  lookup?: LookupFunction;
}

export interface WebReply {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  body: Buffer;
  overLimit: boolean;
}

export type Resolved = Array<{ address: string; family: number }>;

/**
 * What the web tools run with: the HTTP exchange, the `[web]` and `[web_search]` settings, and
 * the resolver whose answers the SSRF check reads (the system's; tests give their own).
 */
export interface WebAccess {
  exchange(request: WebRequest): Promise<WebReply>;
  config: WebConfig;
  /** Unset when no search backend is configured; "disabled" by `web_search = "disabled"`. */
  search?: WebSearchConfig | "disabled";
  /** The config file, named where a message says what to set. */
  configFile: string;
  resolve(host: string): Promise<Resolved>;
}

/** Why a fetch did not produce a page: each harness words these as its original does. */
export type FetchFailure =
  | { kind: "invalid-url"; input: string }
  | { kind: "scheme"; protocol: string }
  /** A name that always means this machine (`localhost`). */
  | { kind: "blocked-host"; host: string }
  /** The host is, or resolves to, a special-purpose address config does not allow. */
  | { kind: "blocked-address"; host: string; address: string; range: string; literal: boolean }
  | { kind: "dns"; host: string; message: string }
  | { kind: "too-large"; limit: number; bytes?: number }
  | { kind: "too-many-redirects"; limit: number }
  | { kind: "timeout"; ms: number }
  | { kind: "aborted" }
  /** Anything else on the way (refused connection, TLS): Node's message, e.g. `connect ECONNREFUSED 127.0.0.1:9`. */
  | { kind: "network"; message: string };

export interface FetchedPage {
  /** Where the body came from (after redirects). */
  url: URL;
  status: number;
  statusText: string;
  headers: Record<string, string>;
  /** The media type without parameters, lower case ("" when the server sent none). */
  contentType: string;
  body: Buffer;
}

export type FetchOutcome =
  | { type: "page"; page: FetchedPage; redirected: boolean }
  /** A redirect the caller's rule does not follow (Claude Code: another host). */
  | { type: "redirect"; from: URL; to: URL; status: number; statusText: string }
  | { type: "failed"; failure: FetchFailure };

export interface SearchHit {
  title: string;
  url: string;
  /** The backend's excerpt of the page ("" when it gave none). */
  snippet: string;
}

export type SearchOutcome =
  | { type: "results"; hits: SearchHit[] }
  /** No backend, or no key for it: `message` says what to set. */
  | { type: "unconfigured"; message: string }
  | { type: "failed"; message: string };

import { FetchRefused, guardedLookup, hostOf, refuseHost } from "./address-policy.js";
import type { FetchFailure, FetchOutcome, WebAccess } from "./types.js";

export interface FetchPageOptions {
  web: WebAccess;
  url: URL;
  /** The turn's signal. */
  signal: AbortSignal;
  headers: Record<string, string>;
  /**
   * `follow`: every redirect is followed, each hop checked anew (Kimi Code, Gemini CLI).
   * `same-host`: only redirects to the same host, port and scheme (`www.` aside) are followed;
   * another is returned as a `redirect` for the model to fetch itself (Claude Code).
   */
  redirects: "follow" | "same-host";
  /** The original's own time limit, if shorter than config's. */
  timeoutMs?: number;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * A GET under the SSRF rules (docs/tools.md): http(s) only; a loopback name, and any host that is
 * or resolves to a special-purpose address, refused unless `[web] allow_private` allows it,
 * checked on every hop, the connection pinned to the checked address; the body capped at
 * `max_bytes`, the whole fetch at `timeout_ms`. Never throws: failures come back typed.
 */
export async function fetchPage(options: FetchPageOptions): Promise<FetchOutcome> {
  const { web } = options;
  const { config } = web;
  const ms = Math.min(options.timeoutMs ?? config.timeoutMs, config.timeoutMs);
  const timer = AbortSignal.timeout(ms);
  const signal = AbortSignal.any([options.signal, timer]);
  let url = options.url;
  for (let hop = 0; ; hop++) {
    const failed = (failure: FetchFailure): FetchOutcome => ({ type: "failed", failure });
    if (url.protocol !== "http:" && url.protocol !== "https:")
      return failed({ kind: "scheme", protocol: url.protocol });
    const refusal = refuseHost(url, config);
    if (refusal) return failed(refusal);
    let reply: Awaited<ReturnType<WebAccess["exchange"]>>;
    try {
      reply = await web.exchange({
        url,
        method: "GET",
        headers: options.headers,
        signal,
        maxBytes: config.maxBytes,
        lookup: guardedLookup({ url, config, resolve: (host) => web.resolve(host) }),
      });
    } catch (error) {
      if (error instanceof FetchRefused) return failed(error.failure);
      if (options.signal.aborted) return failed({ kind: "aborted" });
      if (timer.aborted) return failed({ kind: "timeout", ms });
      return failed({ kind: "network", message: error instanceof Error ? error.message : String(error) });
    }
    const location = reply.headers.location;
    if (REDIRECTS.has(reply.status) && location) {
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        return failed({ kind: "invalid-url", input: location });
      }
      if (options.redirects === "same-host" && !sameOrigin(url, next))
        return { type: "redirect", from: url, to: next, status: reply.status, statusText: reply.statusText };
      if (hop >= config.maxRedirects)
        return failed({ kind: "too-many-redirects", limit: config.maxRedirects });
      url = next;
      continue;
    }
    if (reply.overLimit) {
      const declared = Number(reply.headers["content-length"]);
      return failed({
        kind: "too-large",
        limit: config.maxBytes,
        ...(Number.isFinite(declared) && declared > 0 ? { bytes: declared } : {}),
      });
    }
    const contentType = (reply.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
    return {
      type: "page",
      page: {
        url,
        status: reply.status,
        statusText: reply.statusText,
        headers: reply.headers,
        contentType,
        body: reply.body,
      },
      redirected: hop > 0,
    };
  }
}

/** Claude Code's rule: same scheme, port and host, a leading `www.` ignored. */
function sameOrigin(a: URL, b: URL): boolean {
  const bare = (url: URL) => hostOf(url).replace(/^www\./, "");
  return a.protocol === b.protocol && a.port === b.port && bare(a) === bare(b);
}

/** The body as text in the charset the server named (UTF-8 when it named none or one we cannot decode). */
export function bodyText(page: { headers: Record<string, string>; body: Buffer }): string {
  const charset = /charset="?([^";\s]+)/i.exec(page.headers["content-type"] ?? "")?.[1];
  if (charset && !/^utf-?8$/i.test(charset)) {
    try {
      return new TextDecoder(charset).decode(page.body);
    } catch {
      // An unknown label: read it as UTF-8 below.
    }
  }
  return page.body.toString("utf8");
}

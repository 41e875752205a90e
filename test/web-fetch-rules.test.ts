import { lookup } from "node:dns/promises";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config/load-config.js";
import { ConfigError } from "../src/config/types.js";
import { webSettings } from "../src/config/web-settings.js";
import { webExchange } from "../src/providers/web-exchange.js";
import { decide } from "../src/sessions/permissions.js";
import { fetchAccess } from "../src/tools/web/fetch-access.js";
import { fetchPage } from "../src/tools/web/fetch-page.js";
import { parseAddress, specialRange } from "../src/tools/web/ip-ranges.js";
import type { FetchOutcome, Resolved, WebAccess } from "../src/tools/web/types.js";
import { tempDir } from "./support/in-process.js";
import { type PageServer, PROBE_PAGE, startPageServer } from "./support/web-fixtures.js";

const servers: PageServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function pages(routes: Parameters<typeof startPageServer>[0]) {
  const server = await startPageServer(routes);
  servers.push(server);
  return server;
}

/** Web access on the real HTTP exchange with `[web]` as given in TOML terms, and an optional resolver. */
function web(table: Record<string, unknown> = {}, resolve?: (host: string) => Promise<Resolved>): WebAccess {
  return {
    exchange: webExchange,
    config: webSettings(table as Parameters<typeof webSettings>[0], "config.toml"),
    configFile: "config.toml",
    resolve: resolve ?? ((host) => lookup(host, { all: true })),
  };
}

const signal = new AbortController().signal;
const get = (access: WebAccess, url: string, redirects: "follow" | "same-host" = "follow") =>
  fetchPage({ web: access, url: new URL(url), signal, headers: {}, redirects });

const refusal = (outcome: FetchOutcome) => (outcome.type === "failed" ? outcome.failure : undefined);

describe("special-purpose addresses", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["10.20.30.40", "private"],
    ["172.16.0.1", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "link-local"],
    ["100.100.100.200", "shared (carrier-grade NAT)"],
    ["0.0.0.0", "unspecified"],
    ["::1", "loopback"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["64:ff9b::a9fe:a9fe", "link-local"],
    ["2002:c0a8:101::1", "private"],
    ["fd00:ec2::254", "private"],
    ["fe80::1%eth0", "link-local"],
    ["ff02::1", "multicast"],
  ])("%s is %s", (address, range) => {
    expect(specialRange(parseAddress(address)!)).toBe(range);
  });

  it.each(["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111", "::ffff:8.8.8.8", "172.32.0.1"])(
    "%s is a global address",
    (address) => expect(specialRange(parseAddress(address)!)).toBeUndefined(),
  );
});

describe("fetchPage", () => {
  it("refuses a loopback address without config, before connecting", async () => {
    const server = await pages({ "/page.html": { body: PROBE_PAGE } });
    expect(refusal(await get(web(), `${server.origin}/page.html`))).toEqual({
      kind: "blocked-address",
      host: "127.0.0.1",
      address: "127.0.0.1",
      range: "loopback",
      literal: true,
    });
    expect(server.hits).toEqual([]);
  });

  it("fetches a loopback page that allow_private names, and only on the port it names", async () => {
    const server = await pages({ "/page.html": { body: PROBE_PAGE } });
    const allowed = await get(
      web({ allow_private: [`127.0.0.1:${server.port}`] }),
      `${server.origin}/page.html`,
    );
    expect(allowed.type === "page" && allowed.page.body.toString()).toBe(PROBE_PAGE);
    const otherPort = await get(web({ allow_private: ["127.0.0.1:1"] }), `${server.origin}/page.html`);
    expect(refusal(otherPort)?.kind).toBe("blocked-address");
    const range = await get(web({ allow_private: ["127.0.0.0/8"] }), `${server.origin}/page.html`);
    expect(range.type).toBe("page");
    expect(server.hits).toEqual(["GET /page.html", "GET /page.html"]);
  });

  it("refuses localhost, the IPv4-mapped IPv6 loopback and the metadata address", async () => {
    const server = await pages({ "/": { body: "hi" } });
    expect(refusal(await get(web(), `http://localhost:${server.port}/`))).toEqual({
      kind: "blocked-host",
      host: "localhost",
    });
    expect(refusal(await get(web(), `http://[::ffff:127.0.0.1]:${server.port}/`))).toMatchObject({
      kind: "blocked-address",
      range: "loopback",
    });
    expect(refusal(await get(web(), "http://169.254.169.254/latest/meta-data/"))).toMatchObject({
      kind: "blocked-address",
      range: "link-local",
    });
    expect(server.hits).toEqual([]);
  });

  it("checks what a name resolves to, refuses a mix of public and private answers, and connects to the checked address", async () => {
    const server = await pages({ "/": { body: "internal page" } });
    const names: Record<string, Resolved> = {
      "intranet.test": [{ address: "127.0.0.1", family: 4 }],
      "mixed.test": [
        { address: "93.184.216.34", family: 4 },
        { address: "10.0.0.7", family: 4 },
      ],
    };
    const resolve = async (host: string) => names[host] ?? [];
    expect(refusal(await get(web({}, resolve), `http://intranet.test:${server.port}/`))).toEqual({
      kind: "blocked-address",
      host: "intranet.test",
      address: "127.0.0.1",
      range: "loopback",
      literal: false,
    });
    expect(refusal(await get(web({}, resolve), "http://mixed.test/"))).toMatchObject({ address: "10.0.0.7" });
    expect(server.hits).toEqual([]);
    // Allowed by name: the connection goes to the address our resolver answered (the system
    // resolver does not know the name), so no second lookup can swap it.
    const allowed = await get(
      web({ allow_private: ["intranet.test"] }, resolve),
      `http://intranet.test:${server.port}/`,
    );
    expect(allowed.type === "page" && allowed.page.body.toString()).toBe("internal page");
    expect(server.headers[0]?.host).toBe(`intranet.test:${server.port}`);
  });

  it("checks every redirect hop: a redirect to a private address is refused and never reached", async () => {
    const inner = await pages({ "/secret": { body: "secret" } });
    const outer = await pages({
      "/to-inner": { status: 302, headers: { location: `${inner.origin}/secret` } },
      "/to-metadata": { status: 301, headers: { location: "http://169.254.169.254/latest/meta-data/" } },
      "/same": { status: 302, headers: { location: "/final" } },
      "/final": { body: "final", type: "text/plain" },
    });
    const access = web({ allow_private: [`127.0.0.1:${outer.port}`] });
    expect(refusal(await get(access, `${outer.origin}/to-inner`))).toMatchObject({
      kind: "blocked-address",
      address: "127.0.0.1",
    });
    expect(refusal(await get(access, `${outer.origin}/to-metadata`))).toMatchObject({ range: "link-local" });
    expect(inner.hits).toEqual([]);
    const followed = await get(access, `${outer.origin}/same`);
    expect(followed.type === "page" && [followed.redirected, followed.page.url.pathname]).toEqual([
      true,
      "/final",
    ]);
    // Claude Code's rule: a redirect to another host comes back instead of being followed.
    const described = await get(access, `${outer.origin}/to-inner`, "same-host");
    expect(described.type === "redirect" && [described.to.href, described.status]).toEqual([
      `${inner.origin}/secret`,
      302,
    ]);
    expect(inner.hits).toEqual([]);
  });

  it("caps the body, the redirects and the time", async () => {
    const server = await pages({
      "/big": { body: "x".repeat(5000), type: "text/plain" },
      "/loop": { status: 302, headers: { location: "/loop" } },
    });
    const allow = { allow_private: ["127.0.0.1"] };
    expect(refusal(await get(web({ ...allow, max_bytes: 1000 }), `${server.origin}/big`))).toEqual({
      kind: "too-large",
      limit: 1000,
      bytes: 5000,
    });
    expect(refusal(await get(web({ ...allow, max_redirects: 3 }), `${server.origin}/loop`))).toEqual({
      kind: "too-many-redirects",
      limit: 3,
    });
    expect(server.hits.filter((h) => h === "GET /loop")).toHaveLength(4);
    const slow = { ...allow, timeout_ms: 200 };
    const never = (host: string) => new Promise<Resolved>(() => void host);
    expect(refusal(await get(web(slow, never), "http://slow.test/"))).toEqual({ kind: "timeout", ms: 200 });
  });

  it("refuses schemes other than http(s)", async () => {
    expect(refusal(await get(web(), "file:///etc/passwd"))).toEqual({ kind: "scheme", protocol: "file:" });
  });
});

describe("[web] config", () => {
  it("reads the table with defaults and refuses entries it cannot read, naming them", () => {
    expect(webSettings(undefined, "c.toml")).toEqual({
      allowedHosts: [],
      allowPrivate: [],
      maxBytes: 10 * 1024 * 1024,
      timeoutMs: 60_000,
      maxRedirects: 10,
    });
    const bad = () => webSettings({ allow_private: ["localhost", "10.0.0.0/99"] }, "c.toml");
    expect(bad).toThrow(ConfigError);
    expect(bad).toThrow(
      /web\.allow_private\[1\]: expected a host name, an address or a CIDR range.*got "10\.0\.0\.0\/99"/,
    );
  });

  it("fails loading on a bad search backend and keeps the search key out of the message", () => {
    const home = tempDir("oi-web-config-");
    const write = (text: string) =>
      loadConfig({ env: { INTERPRETER_HOME: home, ...env }, userHome: home, cli: { overrides: [text] } });
    const env = { BRAVE_API_KEY: "brave-secret-value-123" };
    expect(() => write('web_search.backend="bing"')).toThrow(
      /web_search\.backend: expected one of "brave", "tavily", "exa", "searxng", got "bing"/,
    );
    expect(() => write('web_search={backend="searxng"}')).toThrow(
      /web_search\.base_url: the searxng backend needs/,
    );
    const config = write('web_search={backend="brave"}');
    expect(config.webSearch).toMatchObject({ backend: "brave", apiKey: "brave-secret-value-123" });
    let message = "";
    try {
      write('web_search={backend="brave", api_key=5}');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/web_search\.api_key: expected a string, got a number/);
  });

  it("takes Codex's web_search modes: disabled wins over a table, live and cached keep it", () => {
    const home = tempDir("oi-web-modes-");
    fs.writeFileSync(path.join(home, "config.toml"), '[web_search]\nbackend = "brave"\napi_key = "k"\n');
    const load = (...overrides: string[]) =>
      loadConfig({ env: { INTERPRETER_HOME: home }, userHome: home, cli: { overrides } });
    expect(load().webSearch).toMatchObject({ backend: "brave" });
    expect(load('web_search="disabled"').webSearch).toBe("disabled");
    expect(load('web_search="live"').webSearch).toMatchObject({ backend: "brave" });
    expect(load('web_search="cached"').webSearch).toMatchObject({ backend: "brave" });
    expect(() => load('web_search="sometimes"')).toThrow(
      /-c: web_search: expected a table with a backend, or one of "disabled", "cached", "live", got "sometimes"/,
    );
    expect(() => load("web_search=3")).toThrow(/web_search: expected a table with a backend, or one of/);
  });
});

describe("the permission gate for fetches", () => {
  const base = { mode: "workspace-write" as const, sandboxed: true, roots: ["/w"], rules: [] };
  const url = (u: string) => new URL(u);

  it("asks per host in every mode but full-access, remembers the host, and lets allowed_hosts through", () => {
    const access = fetchAccess([url("https://docs.example.com/a")], web());
    for (const mode of ["read-only", "workspace-write", "auto"] as const) {
      expect(decide({ ...base, mode, access })).toMatchObject({
        decision: "ask",
        ruleKey: "fetch:docs.example.com",
        ruleLabel: "fetches from docs.example.com",
      });
    }
    expect(decide({ ...base, mode: "full-access", access }).decision).toBe("allow");
    const rules = [
      { project: "/w", key: "fetch:docs.example.com", decision: "allow" as const, createdAt: "" },
    ];
    expect(decide({ ...base, access, rules }).decision).toBe("allow");
    const denied = [
      { project: "/w", key: "fetch:docs.example.com", decision: "deny" as const, createdAt: "" },
    ];
    expect(decide({ ...base, access, rules: denied }).decision).toBe("deny");
    const listed = fetchAccess(
      [url("https://docs.example.com/a")],
      web({ allowed_hosts: ["*.example.com"] }),
    );
    expect(decide({ ...base, access: listed }).decision).toBe("allow");
    expect(fetchAccess([], web())).toEqual({ type: "none" });
  });
});

import { lookup } from "node:dns/promises";
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { webSearchSettings, webSettings } from "../src/config/web-settings.js";
import { claudeCodeHarness } from "../src/harnesses/claude-code/claude-code-harness.js";
import { geminiCliHarness } from "../src/harnesses/gemini-cli/gemini-cli-harness.js";
import { kimiCodeHarness } from "../src/harnesses/kimi-code/kimi-code-harness.js";
import { EMPTY_BODY } from "../src/harnesses/kimi-code/tools/fetch-url.js";
import { CONTENT_TRUNCATED, NO_RESPONSE } from "../src/harnesses/shared/claude-code-core/tools/web-fetch.js";
import type { Harness } from "../src/harnesses/types.js";
import { webExchange } from "../src/providers/web-exchange.js";
import type { ModelPort, SideRequest } from "../src/tools/types.js";
import { fetchPage } from "../src/tools/web/fetch-page.js";
import type { WebAccess } from "../src/tools/web/types.js";
import { harnessWorkspace, toolContext, toolRunner } from "./support/harness-fixtures.js";
import {
  type PageServer,
  type SearchBackend,
  startPageServer,
  startSearchBackend,
} from "./support/web-fixtures.js";

let pages: PageServer;
let backend: SearchBackend | undefined;
afterEach(async () => {
  await pages?.close();
  await backend?.close();
  backend = undefined;
});

const BIG = `<html><body><p>${"word ".repeat(30_000)}</p></body></html>`;

async function setup(
  harness: Harness,
  options: { answer?: string; search?: Record<string, unknown> | "disabled" } = {},
) {
  pages = await startPageServer({
    "/big.html": { body: BIG },
    "/data.json": { type: "application/json", body: '{"a":1}' },
    "/empty.txt": { type: "text/plain", body: "" },
    "/gone": { status: 404, body: "<h1>Not Found</h1>" },
    "/slow": { hang: true },
  });
  const web: WebAccess = {
    exchange: webExchange,
    config: webSettings({ allow_private: [`127.0.0.1:${pages.port}`] }, "config.toml"),
    ...(options.search
      ? { search: webSearchSettings(options.search as never, { file: "config.toml", env: {} }) }
      : {}),
    configFile: "config.toml",
    resolve: (host) => lookup(host, { all: true }),
  };
  const asked: SideRequest[] = [];
  const model: ModelPort = {
    ask: async (request) => {
      asked.push(request);
      return { text: options.answer ?? "" };
    },
  };
  const { cwd, tools } = harnessWorkspace(harness, { prefix: "oi-web-" });
  const controller = new AbortController();
  const ctx = toolContext(cwd, { web, model, signal: controller.signal });
  return { run: toolRunner(tools, ctx), asked, web, controller };
}

describe("claude-code WebFetch", () => {
  it("cuts the page at 100,000 characters before the small model reads it, and says so when the model is silent", async () => {
    const { run, asked } = await setup(claudeCodeHarness);
    const result = await run("WebFetch", { url: `${pages.origin}/big.html`, prompt: "Count" });
    expect(result).toEqual({ output: NO_RESPONSE });
    const content = asked[0]!.prompt.split("\n---\n")[1]!;
    expect(content).toHaveLength(100_000 + CONTENT_TRUNCATED.length);
    expect(content.endsWith(`word word ${CONTENT_TRUNCATED}`)).toBe(true);
    expect(asked[0]).toMatchObject({ maxTokens: 32000, temperature: 1 });
  });

  it("passes JSON through as text, answers 404 with 2.1.44's text, and refuses what 2.1.44 calls an invalid URL", async () => {
    const { run, asked } = await setup(claudeCodeHarness, { answer: "a is 1" });
    expect(await run("WebFetch", { url: `${pages.origin}/data.json`, prompt: "a?" })).toEqual({
      output: "a is 1",
    });
    expect(asked[0]!.prompt).toContain('\nWeb page content:\n---\n{"a":1}\n---\n\na?\n\n');
    expect(await run("WebFetch", { url: `${pages.origin}/gone`, prompt: "x" })).toEqual({
      output: "Request failed with status code 404",
      isError: true,
    });
    for (const url of [
      `http://localhost:${pages.port}/`,
      "https://user:pw@example.com/",
      `https://e.com/${"a".repeat(2000)}`,
    ]) {
      expect(await run("WebFetch", { url, prompt: "x" }), url).toEqual({
        output: "Invalid URL",
        isError: true,
      });
    }
    expect(pages.hits).toEqual(["GET /data.json", "GET /gone"]);
  });

  it("stops a fetch when the turn is cancelled", async () => {
    const { run, controller } = await setup(claudeCodeHarness);
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    expect(await run("WebFetch", { url: `${pages.origin}/slow`, prompt: "x" })).toEqual({
      output: "aborted",
      isError: true,
    });
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe("kimi-code FetchURL", () => {
  it("cannot extract JSON, answers an empty text body with 2.1.0's line, and saves a long page to a file", async () => {
    const { run } = await setup(kimiCodeHarness);
    expect(await run("FetchURL", { url: `${pages.origin}/data.json` })).toMatchObject({
      output: expect.stringMatching(
        /^Wall time: [\d.]+ seconds\nFailed to fetch URL due to network error: .*\/data\.json\. Failed to extract meaningful content from the page\. The page may require JavaScript to render\.$/,
      ),
      isError: true,
    });
    expect((await run("FetchURL", { url: `${pages.origin}/empty.txt` })).output).toMatch(
      new RegExp(`^Wall time: [\\d.]+ seconds\\n${EMPTY_BODY.replace(/\./g, "\\.")}$`),
    );
    const big = await run("FetchURL", { url: `${pages.origin}/big.html` });
    const saved = /output_path: (.+)/.exec(big.output)?.[1];
    // One long paragraph: cut to 2 000 characters it fits, so the note follows the cut text.
    expect(big.output).toContain(
      "[...truncated]\n[Per-line truncation occurred; the complete output was saved to a file.",
    );
    expect(readFileSync(saved!, "utf8")).toContain("word word");
    expect(await run("FetchURL", { url: "ftp://example.com/x" })).toMatchObject({
      output: expect.stringContaining('Unsupported URL scheme "ftp:" — only http(s) allowed.'),
    });
  });
});

describe("gemini-cli web tools", () => {
  it("web_fetch: every URL failing ends in 0.61's error without a side request; the pages share one budget", async () => {
    const { run, asked } = await setup(geminiCliHarness, { answer: "ok" });
    expect(await run("web_fetch", { prompt: `Read ${pages.origin}/gone please` })).toEqual({
      output: `All fallback fetch attempts failed: ${pages.origin}/gone: Request failed with status code 404 Not Found`,
      isError: true,
    });
    expect(asked).toEqual([]);
    expect(
      await run("web_fetch", { prompt: `Compare ${pages.origin}/big.html and ${pages.origin}/big.html` }),
    ).toEqual({
      output: "<untrusted_context>\nok\n</untrusted_context>",
    });
    const sources = asked[0]!.prompt.split("<source ").slice(1);
    expect(sources.map((s) => s.length).reduce((a, b) => a + b)).toBeLessThan(250_000 + 200);
    expect(asked[0]).toMatchObject({ temperature: 0, topP: 1 });
    expect(await run("web_fetch", { prompt: "no url here" })).toEqual({
      output: "The 'prompt' must contain at least one valid URL (starting with http:// or https://).",
      isError: true,
    });
  });

  it("google_web_search: without a backend says how to set one up; a failing backend gives 0.61's error", async () => {
    const bare = await setup(geminiCliHarness);
    const unconfigured = await bare.run("google_web_search", { query: "q" });
    expect(unconfigured.isError).toBe(true);
    expect(unconfigured.output).toMatch(
      /^Web search is not configured\. To enable it, add a \[web_search\] table to config\.toml/,
    );
    await pages.close();
    backend = await startSearchBackend({ error: "boom" }, 500);
    const failing = await setup(geminiCliHarness, {
      search: { backend: "tavily", base_url: backend.origin, api_key: "tvly-key" },
    });
    expect(await failing.run("google_web_search", { query: "q" })).toEqual({
      output: 'Error during web search for query "q": the tavily API answered 500 Internal Server Error',
      isError: true,
    });
    expect(backend.requests[0]).toMatchObject({ method: "POST", url: "/search" });
    expect(backend.requests[0]!.headers.authorization).toBe("Bearer tvly-key");
    expect(JSON.parse(backend.requests[0]!.body)).toEqual({ query: "q", max_results: 10 });
    const keyless = await setup(geminiCliHarness, { search: { backend: "exa", base_url: backend.origin } });
    expect((await keyless.run("google_web_search", { query: "q" })).output).toMatch(
      /the exa backend has no API key\. To enable it, set EXA_API_KEY, or put api_key in the \[web_search\] table of config\.toml\./,
    );
    const off = await setup(geminiCliHarness, { search: "disabled" });
    expect((await off.run("google_web_search", { query: "q" })).output).toMatch(
      /^Web search is turned off \(web_search = "disabled", from config\.toml/,
    );
  });
});

describe("fetchPage", () => {
  it("reports the turn's cancel as aborted, not as a network error", async () => {
    const { web } = await setup(claudeCodeHarness);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const outcome = await fetchPage({
      web,
      url: new URL(`${pages.origin}/slow`),
      signal: controller.signal,
      headers: {},
      redirects: "follow",
    });
    expect(outcome).toEqual({ type: "failed", failure: { kind: "aborted" } });
  });
});

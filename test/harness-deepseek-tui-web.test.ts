import { afterEach, describe, expect, it } from "vitest";
import { deepseekTuiHarness } from "../src/harnesses/deepseek-tui/deepseek-tui-harness.js";
import { harnessWorkspace, toolContext, toolRunner } from "./support/harness-fixtures.js";
import {
  loopbackWeb,
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

async function setup(search?: Record<string, unknown>) {
  pages = await startPageServer({
    "/page.html": {
      body: "<html><head><style>p{}</style><script>x()</script></head><body><h1>Hi &amp; bye</h1>\n<p>two  words</p></body></html>",
    },
    "/data.json": { type: "application/json", body: '{"a":1,"items":[{"n":"x"},{"n":"y"}]}' },
    "/gone": { status: 404, body: "<h1>Not Found</h1>" },
  });
  const { cwd, tools } = harnessWorkspace(deepseekTuiHarness, { prefix: "oi-deepseek-web-" });
  return toolRunner(tools, toolContext(cwd, { web: loopbackWeb(pages, search) }));
}

describe("deepseek-tui fetch_url", () => {
  it("answers with CodeWhale's JSON: final URL, status, sorted headers, type, text of the HTML", async () => {
    const run = await setup();
    const result = JSON.parse((await run("fetch_url", { url: `${pages.origin}/page.html` })).output);
    expect(result).toMatchObject({
      url: `${pages.origin}/page.html`,
      status: 200,
      content_type: "text/html",
      content: "Hi & bye two words",
      truncated: false,
    });
    expect(Object.keys(result.headers)).toEqual([...Object.keys(result.headers)].sort());
    const raw = JSON.parse(
      (await run("fetch_url", { url: `${pages.origin}/page.html`, format: "raw", max_bytes: 6 })).output,
    );
    expect(raw).toMatchObject({ content: "<html>", truncated: true });
  });

  it("projects JSON fields, marks a 404 as failed with its body, and refuses what CodeWhale refuses", async () => {
    const run = await setup();
    const data = JSON.parse(
      (await run("fetch_url", { url: `${pages.origin}/data.json`, fields: ["$.items[*].n", "$.a"] })).output,
    );
    expect(data.fields).toEqual({ "$.a": [1], "$.items[*].n": ["x", "y"] });
    const gone = await run("fetch_url", { url: `${pages.origin}/gone` });
    expect(gone.isError).toBe(true);
    expect(JSON.parse(gone.output)).toMatchObject({ status: 404, content: "Not Found" });
    expect((await run("fetch_url", { url: "ftp://x" })).output).toBe(
      "Error: Invalid input for tool 'fetch_url': only http:// and https:// URLs are supported",
    );
    expect((await run("fetch_url", { url: "http://localhost:1/" })).output).toBe(
      "Error: Tool 'fetch_url' was denied: requests to localhost are not allowed. Adjust approval mode or request permission.",
    );
    expect((await run("fetch_url", { url: "http://10.0.0.1/" })).output).toBe(
      "Error: Tool 'fetch_url' was denied: IP 10.0.0.1 is a restricted address (private/loopback/link-local). Adjust approval mode or request permission.",
    );
  });
});

describe("deepseek-tui web_search", () => {
  it("answers with CodeWhale's JSON from the configured service, and says when none is", async () => {
    backend = await startSearchBackend({
      results: [
        { title: "One", url: "https://one.example/", content: "first" },
        { title: "Two", url: "https://two.example/", content: "" },
      ],
    });
    const run = await setup({ backend: "tavily", base_url: backend.origin, api_key: "tvly-key" });
    const result = JSON.parse(
      (await run("web_search", { search_query: [{ q: "deepseek", max_results: 1 }] })).output,
    );
    expect(result).toEqual({
      query: "deepseek",
      source: "tavily",
      count: 1,
      message: "Found 1 result(s)",
      results: [{ title: "One", url: "https://one.example/", snippet: "first" }],
    });
    expect((await run("web_search", {})).output).toBe(
      "Error: Tool 'web_search' is missing required field 'query'",
    );
    await backend.close();
    backend = undefined;
    const bare = await setup();
    const unconfigured = await bare("web_search", { query: "q" });
    expect(unconfigured.isError).toBe(true);
    expect(unconfigured.output).toMatch(/^Error: Web search is not configured/);
  });
});

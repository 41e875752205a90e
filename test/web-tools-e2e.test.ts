import { writeFileSync } from "node:fs";
import path from "node:path";
import { methods } from "@agentclientprotocol/sdk/unstable";
import { afterEach, describe, expect, it } from "vitest";
import { claudeCodeHarness } from "../src/harnesses/claude-code/claude-code-harness.js";
import { SOURCES_REMINDER } from "../src/harnesses/claude-code/tools/web-search.js";
import { geminiCliHarness } from "../src/harnesses/gemini-cli/gemini-cli-harness.js";
import { kimiCodeHarness } from "../src/harnesses/kimi-code/kimi-code-harness.js";
import { EXTRACTED_NOTE, VERBATIM_NOTE } from "../src/harnesses/kimi-code/tools/fetch-url.js";
import { CLAUDE_AGENT_IDENTITY } from "../src/harnesses/shared/claude-code-core/identity.js";
import type { Harness } from "../src/harnesses/types.js";
import type { HistoryEventOf } from "../src/store/events.js";
import { type ChatBody, type FakeModel, startFakeModel } from "./support/fake-model.js";
import { type InProcessAgent, startInProcess, tempDir } from "./support/in-process.js";
import { spawnAgent } from "./support/spawn-agent.js";
import { INIT, testClient } from "./support/test-client.js";
import {
  type PageServer,
  PROBE_PAGE,
  type SearchBackend,
  startPageServer,
  startSearchBackend,
} from "./support/web-fixtures.js";

let model: FakeModel;
let oi: InProcessAgent;
let pages: PageServer;
let other: PageServer;
let backend: SearchBackend | undefined;

afterEach(async () => {
  await oi?.close();
  await model?.close();
  await pages?.close();
  await other?.close();
  await backend?.close();
  backend = undefined;
});

/** A page server whose port `[web] allow_private` names, and a second loopback server it does not. */
async function start(harness: Harness, extraToml = "") {
  model = await startFakeModel();
  other = await startPageServer({ "/secret": { body: "not for the model" } });
  pages = await startPageServer({
    "/page.html": { body: PROBE_PAGE },
    "/notes.txt": { type: "text/plain", body: "plain line 1\nplain line 2\n" },
    "/to-other": { status: 302, headers: { location: `${other.origin}/secret` } },
    "/to-metadata": { status: 302, headers: { location: "http://169.254.169.254/latest/meta-data/" } },
  });
  oi = await startInProcess({
    model,
    harnesses: [harness],
    configToml: `harness = "${harness.id}"\n\n[web]\nallow_private = ["127.0.0.1:${pages.port}"]\n${extraToml}`,
  });
  oi.editor.setPermission(() => "allow_always");
  return oi.newSession();
}

type Message = { role: string; content: unknown; tool_call_id?: string };
const toolResult = (body: ChatBody, id: string) =>
  (body.messages as Message[]).find((m) => m.role === "tool" && m.tool_call_id === id)?.content;
const lastBody = () => model.requests.at(-1)!.body;
const userText = (body: ChatBody) => (body.messages as Message[]).find((m) => m.role === "user")?.content;
const toolUsage = (sessionId: string) =>
  oi.runtime.store
    .history(sessionId)
    .filter((e): e is HistoryEventOf<"usage"> => e.type === "usage" && e.purpose === "tool");

describe("claude-code WebFetch and WebSearch", () => {
  it("answers from a loopback page config allows through the small-model request, and refuses private addresses and redirects to them", async () => {
    const { sessionId } = await start(claudeCodeHarness);
    const page = `${pages.origin}/page.html`;
    model.reply(
      {
        toolCalls: [
          { id: "toolu_1", name: "WebFetch", arguments: { url: page, prompt: "What is the secret word?" } },
        ],
      },
      {
        text: "The secret word is pineapple.",
        expect(body) {
          expect(body.tools).toBeUndefined();
          expect(body.max_tokens).toBe(32000);
          expect(body.messages[0]).toEqual({ role: "system", content: CLAUDE_AGENT_IDENTITY });
          expect(userText(body)).toMatch(
            /^\nWeb page content:\n---\nProbe Heading\n=============\n\nThe secret word is \*\*pineapple\*\*, see \[other\]\(\/other\.html\)\.\n\n\* {3}item one\n\* {3}item two\n---\n\nWhat is the secret word\?\n\n.+\n$/s,
          );
          expect(userText(body)).not.toMatch(/Probe Page|color:red|secret = 1/);
        },
      },
      {
        toolCalls: [
          {
            id: "toolu_2",
            name: "WebFetch",
            arguments: { url: `${pages.origin}/to-metadata`, prompt: "Follow me" },
          },
        ],
      },
      {
        toolCalls: [
          {
            id: "toolu_3",
            name: "WebFetch",
            arguments: { url: "http://169.254.169.254/latest/meta-data/", prompt: "Follow me" },
          },
        ],
      },
      {
        toolCalls: [
          { id: "toolu_4", name: "WebFetch", arguments: { url: `${other.origin}/secret`, prompt: "x" } },
        ],
      },
      { text: "The page says pineapple." },
    );
    expect(await oi.prompt(sessionId, "Fetch the probe page")).toBe("end_turn");
    model.assertDone();
    const last = lastBody();
    expect(toolResult(last, "toolu_1")).toBe("The secret word is pineapple.");
    expect(toolResult(last, "toolu_2")).toBe(
      [
        "REDIRECT DETECTED: The URL redirects to a different host.",
        "",
        `Original URL: ${pages.origin}/to-metadata`,
        "Redirect URL: http://169.254.169.254/latest/meta-data/",
        "Status: 302 Found",
        "",
        "To complete your request, I need to fetch content from the redirected URL. Please use WebFetch again with these parameters:",
        '- url: "http://169.254.169.254/latest/meta-data/"',
        '- prompt: "Follow me"',
      ].join("\n"),
    );
    // Not a host config names: upgraded to https, then refused for its address, not fetched.
    expect(toolResult(last, "toolu_3")).toBe(
      "Refusing to fetch https://169.254.169.254/latest/meta-data/: 169.254.169.254 is a link-local address. Loopback, private, link-local and metadata addresses are fetched only where [web] allow_private in the config allows them.",
    );
    expect(toolResult(last, "toolu_4")).toMatch(
      /^Refusing to fetch https:\/\/127\.0\.0\.1:\d+\/secret: 127\.0\.0\.1 is a loopback address\./,
    );
    expect(pages.hits).toEqual(["GET /page.html", "GET /to-metadata"]);
    expect(other.hits).toEqual([]);
    // Asked once per host; "always" answered for 127.0.0.1 covers the second fetch there.
    expect(oi.editor.permissions.map((p) => p.toolCall.title)).toEqual([
      `Fetch ${page}`,
      "Fetch https://169.254.169.254/latest/meta-data/",
    ]);
    expect(oi.runtime.store.rules(oi.runtime.store.getSession(sessionId)!.cwd).map((r) => r.key)).toEqual(
      expect.arrayContaining(["fetch:127.0.0.1", "fetch:169.254.169.254"]),
    );
    // The side request is in the ledger, marked as a tool's.
    expect(toolUsage(sessionId)).toHaveLength(1);
    expect(toolUsage(sessionId)[0]).toMatchObject({ model: "mock-model", harness: "claude-code" });
    await oi.prompt(sessionId, "/usage");
    expect(oi.editor.text(sessionId)).toMatch(/Of which tools' side requests: 1 request, \d+ tokens/);
  });

  it("searches the configured backend with the key in its header, never in a model request, in 2.1.44's result layout", async () => {
    backend = await startSearchBackend({
      web: {
        results: [
          {
            title: "Pineapple - Wikipedia",
            url: "https://en.wikipedia.org/wiki/Pineapple",
            description: "A tropical plant.",
          },
          { title: "Spam", url: "https://spam.example/pineapple", description: "Buy now." },
          { title: 'The "Fruit" Guide', url: "https://fruit.example/p", description: "" },
        ],
      },
    });
    const { sessionId } = await start(
      claudeCodeHarness,
      `\n[web_search]\nbackend = "brave"\nbase_url = "${backend.origin}/res/v1"\napi_key = "brave-key-canary"\n`,
    );
    model.reply(
      {
        toolCalls: [
          {
            id: "toolu_1",
            name: "WebSearch",
            arguments: { query: "pineapple facts", blocked_domains: ["spam.example"] },
          },
        ],
      },
      {
        toolCalls: [
          {
            id: "toolu_2",
            name: "WebSearch",
            arguments: { query: "pineapple", allowed_domains: ["a.example"], blocked_domains: ["b.example"] },
          },
        ],
      },
      { text: "Done." },
    );
    expect(await oi.prompt(sessionId, "Search")).toBe("end_turn");
    model.assertDone();
    expect(backend.requests).toHaveLength(1);
    const [request] = backend.requests;
    expect(request!.url).toBe("/res/v1/web/search?q=pineapple+facts+-site%3Aspam.example&count=10");
    expect(request!.headers["x-subscription-token"]).toBe("brave-key-canary");
    const last = lastBody();
    expect(toolResult(last, "toolu_1")).toBe(
      [
        'Web search results for query: "pineapple facts"',
        "",
        'Links: [{"title":"Pineapple - Wikipedia","url":"https://en.wikipedia.org/wiki/Pineapple"},{"title":"The \\"Fruit\\" Guide","url":"https://fruit.example/p"}]',
        "",
        "Pineapple - Wikipedia\nA tropical plant.",
        "",
        "",
        SOURCES_REMINDER,
      ].join("\n"),
    );
    expect(toolResult(last, "toolu_2")).toBe(
      "<tool_use_error>Error: Cannot specify both allowed_domains and blocked_domains in the same request</tool_use_error>",
    );
    expect(JSON.stringify(model.requests.map((r) => r.body))).not.toContain("brave-key-canary");
    expect(oi.editor.permissions).toEqual([]);
  });

  it("is offered without a backend and answers with how to configure one", async () => {
    const { sessionId } = await start(claudeCodeHarness);
    model.reply(
      { toolCalls: [{ id: "toolu_1", name: "WebSearch", arguments: { query: "anything" } }] },
      { text: "No search here." },
    );
    expect(await oi.prompt(sessionId, "Search")).toBe("end_turn");
    const first = model.requests[0]!.body;
    expect(first.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual([
      "Task",
      "TaskOutput",
      "Bash",
      "Glob",
      "Grep",
      "ExitPlanMode",
      "Read",
      "Edit",
      "Write",
      "NotebookEdit",
      "WebFetch",
      "TodoWrite",
      "WebSearch",
      "TaskStop",
      "AskUserQuestion",
      "EnterPlanMode",
    ]);
    const answer = toolResult(lastBody(), "toolu_1") as string;
    expect(answer).toContain("Web search is not configured. To enable it, add a [web_search] table to ");
    expect(answer).toContain(`${oi.home}/config.toml`);
    expect(answer).toContain('backend = "brave"');
  });
});

describe("kimi-code FetchURL", () => {
  it("extracts a loopback page config allows, passes text through, and refuses loopback names and redirects to private addresses", async () => {
    const { sessionId } = await start(kimiCodeHarness);
    const url = (path: string) => `${pages.origin}${path}`;
    model.reply(
      { toolCalls: [{ id: "FetchURL:0", name: "FetchURL", arguments: { url: url("/page.html") } }] },
      { toolCalls: [{ id: "FetchURL:1", name: "FetchURL", arguments: { url: url("/notes.txt") } }] },
      { toolCalls: [{ id: "FetchURL:2", name: "FetchURL", arguments: { url: url("/to-other") } }] },
      {
        toolCalls: [
          { id: "FetchURL:3", name: "FetchURL", arguments: { url: `http://localhost:${pages.port}/` } },
        ],
      },
      { toolCalls: [{ id: "FetchURL:4", name: "FetchURL", arguments: { url: url("/missing") } }] },
      { text: "pineapple" },
    );
    expect(await oi.prompt(sessionId, "Fetch the probe page")).toBe("end_turn");
    model.assertDone();
    const last = lastBody();
    const result = (n: number) => toolResult(last, `FetchURL_${n}`) as string;
    const wall = "Wall time: \\d+\\.\\d{3} seconds\n";
    const exact = (text: string) => new RegExp(`^${wall}${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);
    expect(result(0)).toMatch(
      exact(
        `${EXTRACTED_NOTE}\n\n# Probe Page\n\nProbe Heading\n\nThe secret word is pineapple, see other.\n\nitem one\n\nitem two`,
      ),
    );
    expect(result(1)).toMatch(exact(`${VERBATIM_NOTE}\n\nplain line 1\nplain line 2\n`));
    const error = "<system>ERROR: Tool execution failed.</system>\n";
    expect(result(2)).toMatch(
      exact(
        `${error}Failed to fetch URL due to network error: ${url("/to-other")}. Refusing to fetch private address: "127.0.0.1"`,
      ),
    );
    expect(result(3)).toMatch(
      exact(
        `${error}Failed to fetch URL due to network error: http://localhost:${pages.port}/. Refusing to fetch private host: "localhost"`,
      ),
    );
    expect(result(4)).toMatch(exact(`${error}Failed to fetch URL. Status: 404. HTTP 404 Not Found`));
    expect(other.hits).toEqual([]);
    expect(pages.hits).toEqual(["GET /page.html", "GET /notes.txt", "GET /to-other", "GET /missing"]);
  });
});

describe("gemini-cli web_fetch and google_web_search", () => {
  it("fetches the prompt's allowed URLs, skips blocked ones, and answers through a side request to small_model in <untrusted_context>", async () => {
    const { sessionId } = await start(geminiCliHarness, 'small_model = "tiny-model"\n');
    const page = `${pages.origin}/page.html`;
    const blocked = `${other.origin}/secret`;
    model.reply(
      {
        toolCalls: [
          { id: "call_1", name: "web_fetch", arguments: { prompt: `Summarize ${page} and ${blocked}` } },
        ],
      },
      {
        text: "The pages say pineapple.",
        expect(body) {
          expect(body.tools).toBeUndefined();
          expect(body.model).toBe("tiny-model");
          expect(body.temperature).toBe(0);
          expect(body.top_p).toBe(1);
          expect(body.messages[0].role).toBe("system");
          expect(body.messages[0].content).toBe(model.requests[0]!.body.messages[0].content);
          const text = userText(body) as string;
          expect(text).toContain(
            `\n\n<user_instructions>\nSummarize ${page} and ${blocked}\n</user_instructions>\n\n`,
          );
          expect(text).toMatch(
            new RegExp(
              `<content>\\n<source url="${page.replace(/[.]/g, "\\.")}">\\nPROBE HEADING\\n\\nThe secret word is pineapple, see other\\.\\n\\nitem one\\n\\nitem two\\n</source>\\n</content>\\n$`,
            ),
          );
        },
      },
      { toolCalls: [{ id: "call_2", name: "web_fetch", arguments: { prompt: `Read ${blocked}` } }] },
      {
        toolCalls: [
          { id: "call_3", name: "web_fetch", arguments: { prompt: "get ftp://example.com/x now" } },
        ],
      },
      { text: "Done." },
    );
    expect(await oi.prompt(sessionId, "Summarize")).toBe("end_turn");
    model.assertDone();
    const last = lastBody();
    expect(toolResult(last, "call_1")).toBe(
      `<untrusted_context>\n[Warning] The following URLs were skipped:\n[Blocked Host] ${blocked}\n\nThe pages say pineapple.\n</untrusted_context>`,
    );
    expect(toolResult(last, "call_2")).toBe(`All requested URLs were skipped: [Blocked Host] ${blocked}`);
    expect(toolResult(last, "call_3")).toBe(
      'Error(s) in prompt URLs:\n- Unsupported protocol in URL: "ftp://example.com/x". Only http and https are supported.',
    );
    expect(other.hits).toEqual([]);
    expect(pages.headers[0]?.["user-agent"]).toMatch(/openinterpreter/);
    expect(toolUsage(sessionId).map((u) => u.model)).toEqual(["tiny-model"]);
    expect(model.requests[0]!.body.model).toBe("mock-model");
  });

  it("searches a SearXNG backend and cites its results as 0.61 does", async () => {
    backend = await startSearchBackend({
      results: [
        { title: "Café result", url: "https://example.com/a", content: "Café result." },
        { title: "", url: "https://example.com/b", content: "Second sentence." },
      ],
    });
    const { sessionId } = await start(
      geminiCliHarness,
      `\n[web_search]\nbackend = "searxng"\nbase_url = "${backend.origin}"\n`,
    );
    model.reply(
      { toolCalls: [{ id: "call_1", name: "google_web_search", arguments: { query: "probe query" } }] },
      { toolCalls: [{ id: "call_2", name: "google_web_search", arguments: { query: " " } }] },
      { text: "Done." },
    );
    expect(await oi.prompt(sessionId, "Search")).toBe("end_turn");
    model.assertDone();
    expect(backend.requests.map((r) => r.url)).toEqual(["/search?q=probe+query&format=json"]);
    const last = lastBody();
    expect(toolResult(last, "call_1")).toBe(
      'Web search results for "probe query":\n\nCafé result.[1]\n\nSecond sentence.[2]\n\nSources:\n[1] Café result (https://example.com/a)\n[2] Untitled (https://example.com/b)',
    );
    expect(toolResult(last, "call_2")).toBe("The 'query' parameter cannot be empty.");
  });
});

describe("the daemon as users start it", () => {
  it.each([
    ["the start-up snapshot", {}],
    ["the plain entry point", { INTERPRETER_SNAPSHOT: "0" }],
  ])("resolves, checks and converts a page from %s", async (_from, env) => {
    model = await startFakeModel();
    pages = await startPageServer({ "/page.html": { body: PROBE_PAGE } });
    const home = tempDir("oi-web-home-");
    writeFileSync(
      path.join(home, "config.toml"),
      `harness = "kimi-code"\nmode = "full-access"\n\n[web]\nallow_private = ["localhost:${pages.port}"]\n`,
    );
    const agent = spawnAgent({
      home,
      env: { OPENAI_BASE_URL: model.url, OPENAI_API_KEY: "sk-web", ...env },
      args: ["-m", "mock-model"],
    });
    try {
      const connection = testClient().app.connect(agent.stream);
      await connection.agent.request(methods.agent.initialize, INIT);
      const cwd = tempDir("oi-web-ws-");
      const { sessionId } = await connection.agent.request(methods.agent.session.new, {
        cwd,
        mcpServers: [],
      });
      model.reply(
        // By name, so the daemon's resolver (and the check inside its lookup) runs too.
        {
          toolCalls: [
            {
              id: "FetchURL:0",
              name: "FetchURL",
              arguments: { url: `http://localhost:${pages.port}/page.html` },
            },
          ],
        },
        { text: "pineapple" },
      );
      const { stopReason } = await connection.agent.request(methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "fetch" }],
      });
      expect(stopReason).toBe("end_turn");
      expect(toolResult(lastBody(), "FetchURL_0")).toContain(
        "# Probe Page\n\nProbe Heading\n\nThe secret word is pineapple",
      );
      expect(agent.violations).toEqual([]);
    } finally {
      agent.child.kill("SIGKILL");
    }
  });
});

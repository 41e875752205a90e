import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { endpointSettings } from "../src/config/endpoint-settings.js";
import { hostedProviders } from "../src/config/hosted-providers.js";
import { loadConfig } from "../src/config/load-config.js";
import { providerPresets } from "../src/config/provider-presets.js";
import { setupMessage, setupProblem } from "../src/config/setup-problem.js";
import type { CliOverrides, LoadConfigOptions } from "../src/config/types.js";
import { builtinHarnesses } from "../src/harnesses/harness-list.js";

const DOC = fs.readFileSync(path.resolve("docs/providers.md"), "utf8");

let home: string;
beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), "oi-presets-"));
});
afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

function load(toml: string, env: LoadConfigOptions["env"] = {}, cli: CliOverrides = {}) {
  fs.writeFileSync(path.join(home, "config.toml"), toml);
  return loadConfig({ env: { INTERPRETER_HOME: home, ...env }, cli, userHome: "/nonexistent-user-home" });
}

/** docs/providers.md's routing table: harness id -> the wires it renders for. */
function documentedRouting(): Map<string, string[]> {
  const section = DOC.slice(DOC.indexOf("## Harnesses and wires"));
  const rows = [...section.matchAll(/^\| `([a-z0-9-]+)` \| ([^|]+) \|$/gm)];
  return new Map(
    rows.map((m) => [m[1] as string, [...(m[2] as string).matchAll(/`(\w+)`/g)].map((w) => w[1] as string)]),
  );
}

describe("the preset table", () => {
  const presets = providerPresets();

  it("has no duplicate ids, and every id is a bare TOML key", () => {
    const ids = presets.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9][a-z0-9-]*$/);
  });

  it("hosted services are https with a key variable and a page to get a key; local servers are loopback http without one", () => {
    for (const p of presets) {
      const url = new URL(p.baseUrl);
      if (p.local) {
        expect(url.protocol, p.id).toBe("http:");
        expect(url.hostname, p.id).toBe("localhost");
        expect(p.envKey, p.id).toBeUndefined();
      } else {
        expect(url.protocol, p.id).toBe("https:");
        expect(p.envKey, p.id).toMatch(/^[A-Z][A-Z0-9_]*_API_KEY$/);
        expect(p.keysUrl, p.id).toMatch(/^https:\/\//);
      }
      expect(p.source, p.id).toMatch(/^https:\/\//);
    }
  });

  it("an Anthropic-style base URL leaves /v1 to the SDK (it appends /v1/messages)", () => {
    for (const p of presets.filter((p) => p.wire === "messages"))
      expect(p.baseUrl, p.id).not.toMatch(/\/v1\/?$/);
  });

  it("every preset's wire has a harness routed to it", () => {
    const routing = documentedRouting();
    expect(routing.size).toBeGreaterThan(0);
    const routed = new Set([...routing.values()].flat());
    for (const p of presets) expect(routed.has(p.wire), `${p.id} speaks ${p.wire}`).toBe(true);
  });

  const declared = builtinHarnesses().every((h) => Array.isArray((h as { wires?: unknown }).wires));
  it.skipIf(!declared)("the documented routing is the harnesses' own", () => {
    const fromCode = new Map(builtinHarnesses().map((h) => [h.id, [...h.wires].sort()]));
    const fromDoc = new Map([...documentedRouting()].map(([id, wires]) => [id, [...wires].sort()]));
    expect(fromDoc).toEqual(fromCode);
  });

  it("docs/providers.md lists every preset with its wire, base URL, key variable and source", () => {
    for (const p of presets) {
      const row = DOC.split("\n").find((line) => line.startsWith(`| \`${p.id}\` |`));
      expect(row, `${p.id} has a row`).toBeDefined();
      expect(row).toContain(`\`${p.wire}\``);
      expect(row).toContain(p.baseUrl);
      if (p.envKey) expect(row).toContain(`\`${p.envKey}\``);
      expect(DOC).toContain(p.source);
    }
  });
});

describe("presets as built-in providers", () => {
  it("each is selectable with no table, with its wire, key variable and quirks", () => {
    const config = load('model_provider = "dashscope"\n', { DASHSCOPE_API_KEY: "sk-dash-test-1" });
    expect(config.provider).toMatchObject({
      id: "dashscope",
      baseUrl: "https://dashscope-intl.aliyuncs.com/compatible-mode/v1",
      envKey: "DASHSCOPE_API_KEY",
      apiKey: "sk-dash-test-1",
      wireApi: "chat",
      extraBody: { enable_thinking: true },
    });
    expect(load('model_provider = "zai-anthropic"\n').provider).toMatchObject({
      wireApi: "messages",
      baseUrl: "https://api.z.ai/api/anthropic",
      authStyle: "bearer",
    });
    expect(load('model_provider = "groq"\n').provider.reasoningBack).toBe("never");
    expect(load('model_provider = "openai-responses"\n').provider.wireApi).toBe("responses");
  });

  it("say whether their models take images: DeepSeek's do not; the table and model_supports_images win", () => {
    expect(load('model_provider = "openai"\n').modelSupportsImages).toBe(true);
    expect(load('model_provider = "deepseek"\n').modelSupportsImages).toBe(false);
    expect(load('model_provider = "deepseek-anthropic"\n').modelSupportsImages).toBe(false);
    expect(
      load('model_provider = "ollama"\n[model_providers.ollama]\nsupports_images = false\n')
        .modelSupportsImages,
    ).toBe(false);
    expect(load('model_provider = "deepseek"\nmodel_supports_images = true\n').modelSupportsImages).toBe(
      true,
    );
    expect(load('model_provider = "openai"\nmodel_supports_images = false\n').modelSupportsImages).toBe(
      false,
    );
  });

  it("a user table merges over a preset field by field", () => {
    const config = load(
      'model_provider = "deepseek"\n[model_providers.deepseek]\nbase_url = "http://127.0.0.1:9/v1"\nrequest_max_retries = 1\n',
      { DEEPSEEK_API_KEY: "sk-ds-test-1" },
    );
    expect(config.provider).toMatchObject({
      name: "DeepSeek",
      baseUrl: "http://127.0.0.1:9/v1",
      envKey: "DEEPSEEK_API_KEY",
      apiKey: "sk-ds-test-1",
      wireApi: "chat",
      reasoningBack: "present",
      requestMaxRetries: 1,
    });
    const qwen = load(
      'model_provider = "dashscope"\n[model_providers.dashscope]\nextra_body = { enable_thinking = false, thinking_budget = 500 }\n',
    );
    expect(qwen.provider.extraBody).toEqual({ enable_thinking: false, thinking_budget: 500 });
    const strict = load('[model_providers.moonshot]\nreasoning_back = "never"\nwire_api = "messages"\n');
    expect(strict.providers.moonshot).toMatchObject({ reasoningBack: "never", wireApi: "messages" });
  });

  it("OPENAI_BASE_URL moves openai, keeps its key variable, and drops OpenAI's own strictness", () => {
    const moved = load("", { OPENAI_BASE_URL: "http://127.0.0.1:11434/v1", OPENAI_API_KEY: "sk-local-1" });
    expect(moved.provider).toMatchObject({ baseUrl: "http://127.0.0.1:11434/v1", apiKey: "sk-local-1" });
    expect(moved.provider.reasoningBack).toBeUndefined();
    expect(moved.providers["openai-responses"]?.baseUrl).toBe("https://api.openai.com/v1");
    expect(load("").provider.reasoningBack).toBe("never");
  });

  it("--chat-completions forces chat on a preset that speaks it", () => {
    expect(
      load('model_provider = "openai-responses"\n', {}, { chatCompletions: true }).provider.wireApi,
    ).toBe("chat");
  });

  it("the set-up's hosted list is the presets marked for it, in the table's order", () => {
    const hosted = hostedProviders();
    expect(hosted.map((h) => h.id)).toEqual([
      "openai",
      "openrouter",
      "deepseek",
      "moonshot",
      "dashscope",
      "gemini",
      "groq",
    ]);
    for (const h of hosted) {
      const preset = providerPresets().find((p) => p.id === h.id);
      expect(h).toEqual({
        id: preset?.id,
        name: preset?.name,
        baseUrl: preset?.baseUrl,
        envKey: preset?.envKey,
        keysUrl: preset?.keysUrl,
      });
      expect(preset?.wire).toBe("chat");
    }
  });

  it("a selected preset without its key says which variable and where to get one", () => {
    const config = load('model = "deepseek-chat"\nmodel_provider = "deepseek"\n');
    const problem = setupProblem(config, config.model);
    expect(problem?.kind).toBe("key_unset");
    expect(setupMessage(problem!)).toBe(
      "The DeepSeek provider reads its API key from `DEEPSEEK_API_KEY`, which is not set. Get a key at https://platform.deepseek.com/api_keys and set it where this agent is started (for an editor, the `env` of its agent server entry); `interpreter doctor` checks it.",
    );
    expect(setupProblem(load('model = "m"\nmodel_provider = "ollama"\n'), "m")).toBeUndefined();
  });
});

describe("endpointSettings", () => {
  it("carries the wire, the quirks and the reasoning settings of the selected provider", () => {
    const config = load(
      'model_provider = "moonshot-anthropic"\nmodel_reasoning_effort = "medium"\nmodel_reasoning_summary = "auto"\nmodel_thinking_budget = 4096\n',
    );
    expect(endpointSettings(config)).toEqual({
      wire: "messages",
      authStyle: "bearer",
      reasoning: { effort: "medium", summary: "auto" },
      thinkingBudget: 4096,
    });
    expect(endpointSettings(load('model_provider = "ollama"\n'))).toEqual({ wire: "chat" });
  });
});

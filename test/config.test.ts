import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveHome } from "../src/config/home.js";
import { loadConfig } from "../src/config/load-config.js";
import { providerPresets } from "../src/config/provider-presets.js";
import { type CliOverrides, ConfigError, type LoadConfigOptions } from "../src/config/types.js";

let home: string;
let file: string;

beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), "oi-config-"));
  file = path.join(home, "config.toml");
});
afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

function write(toml: string): void {
  fs.writeFileSync(file, toml);
}

function load(cli: CliOverrides = {}, env: LoadConfigOptions["env"] = {}) {
  return loadConfig({ env: { INTERPRETER_HOME: home, ...env }, cli, userHome: "/nonexistent-user-home" });
}

/** The ConfigError thrown by `fn` (fails the test when nothing or something else is thrown). */
function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error("expected a ConfigError");
}

describe("resolveHome", () => {
  it("defaults to ~/.openinterpreter", () => {
    expect(resolveHome({}, "/home/ada")).toBe("/home/ada/.openinterpreter");
    expect(resolveHome({ INTERPRETER_HOME: "" }, "/home/ada")).toBe("/home/ada/.openinterpreter");
  });

  it("honours an absolute INTERPRETER_HOME", () => {
    expect(resolveHome({ INTERPRETER_HOME: "/srv/oi/" }, "/home/ada")).toBe("/srv/oi");
  });

  it("rejects a relative INTERPRETER_HOME", () => {
    const error = configError(() => resolveHome({ INTERPRETER_HOME: "rel/oi" }, "/home/ada"));
    expect(error.message).toContain("INTERPRETER_HOME must be an absolute path");
    expect(error.message).toContain('"rel/oi"');
    expect(error.code).toBe("config_invalid");
  });

  it("is what loadConfig uses", () => {
    const config = loadConfig({ env: {}, userHome: home });
    expect(config.home).toBe(path.join(home, ".openinterpreter"));
    expect(config.file).toBe(path.join(home, ".openinterpreter", "config.toml"));
  });
});

describe("defaults", () => {
  it("works without a config file", () => {
    const config = load({}, { OPENAI_API_KEY: "sk-test-default-key" });
    expect(config.home).toBe(home);
    expect(config.file).toBe(file);
    expect(config.model).toBeUndefined();
    expect(config.harness).toBeUndefined();
    expect(config.mode).toBe("workspace-write");
    expect(config.modelContextWindow).toBeUndefined();
    expect(config.maxTurnSteps).toBe(100);
    expect(config.models).toEqual([]);
    expect(config.mcpServers).toEqual({});
    expect(config.provider).toEqual({
      id: "openai",
      name: "OpenAI",
      baseUrl: "https://api.openai.com/v1",
      envKey: "OPENAI_API_KEY",
      apiKey: "sk-test-default-key",
      wireApi: "chat",
      keysUrl: "https://platform.openai.com/api-keys",
      reasoningBack: "never",
      httpHeaders: {},
      queryParams: {},
      requestMaxRetries: 4,
      streamIdleTimeoutMs: 300_000,
    });
    // Every preset is usable without a table of its own.
    expect(Object.keys(config.providers).sort()).toEqual(
      providerPresets()
        .map((p) => p.id)
        .sort(),
    );
    expect(config.providers.ollama).toMatchObject({ baseUrl: "http://localhost:11434/v1", wireApi: "chat" });
    expect(config.providers.ollama?.apiKey).toBeUndefined();
    expect(config.providers.ollama?.envKey).toBeUndefined();
    expect(config.providers.lmstudio).toMatchObject({ baseUrl: "http://localhost:1234/v1" });
    expect(config.providers.lmstudio?.apiKey).toBeUndefined();
  });

  it("has no API key when the variable is unset or empty", () => {
    expect(load().provider.apiKey).toBeUndefined();
    expect(load({}, { OPENAI_API_KEY: "" }).provider.apiKey).toBeUndefined();
  });
});

describe("file keys", () => {
  it("reads every key we own", () => {
    write(`
model = "qwen3-coder"
model_provider = "mock"
models = ["kimi-k2", "glm-4.6"]
harness = "kimi-code"
mode = "auto"
model_context_window = 262144
max_turn_steps = 40

[model_providers.mock]
name = "Mock"
base_url = "http://127.0.0.1:9999/v1/"
env_key = "MOCK_KEY"
wire_api = "chat"
http_headers = { "X-Team" = "core" }
query_params = { "api-version" = "2025-01-01" }
request_max_retries = 0
stream_idle_timeout_ms = 1500

[mcp_servers.docs]
command = "npx"
args = ["-y", "docs-mcp"]
env = { DEBUG = "1" }
`);
    const config = load({}, { MOCK_KEY: "mock-secret-123" });
    expect(config.model).toBe("qwen3-coder");
    expect(config.models).toEqual(["kimi-k2", "glm-4.6"]);
    expect(config.harness).toBe("kimi-code");
    expect(config.mode).toBe("auto");
    expect(config.modelContextWindow).toBe(262_144);
    expect(config.maxTurnSteps).toBe(40);
    expect(config.provider).toEqual({
      id: "mock",
      name: "Mock",
      baseUrl: "http://127.0.0.1:9999/v1",
      envKey: "MOCK_KEY",
      apiKey: "mock-secret-123",
      wireApi: "chat",
      httpHeaders: { "X-Team": "core" },
      queryParams: { "api-version": "2025-01-01" },
      requestMaxRetries: 0,
      streamIdleTimeoutMs: 1500,
    });
    expect(config.providers.mock).toEqual(config.provider);
    expect(config.providers.openai).toBeDefined();
    expect(config.mcpServers).toEqual({
      docs: { command: "npx", args: ["-y", "docs-mcp"], env: { DEBUG: "1" } },
    });
  });

  it("fills provider defaults and tolerates unknown keys at every level", () => {
    write(`
model_provider = "mock"
model_reasoning_effort = "high"
approval_policy = "on-request"

[features]
web_search = true

[model_providers.mock]
base_url = "http://127.0.0.1:9999/v1"
stream_max_retries = 9
requires_openai_auth = false

[model_providers.mock.auth]
command = "print-token"

[history]
persistence = "none"
`);
    const config = load();
    expect(config.provider).toEqual({
      id: "mock",
      name: "mock",
      baseUrl: "http://127.0.0.1:9999/v1",
      wireApi: "chat",
      httpHeaders: {},
      queryParams: {},
      requestMaxRetries: 4,
      streamIdleTimeoutMs: 300_000,
    });
  });

  it("maps upstream sandbox_mode when mode is absent", () => {
    write('sandbox_mode = "danger-full-access"\n');
    expect(load().mode).toBe("full-access");
    write('sandbox_mode = "read-only"\n');
    expect(load().mode).toBe("read-only");
    write('sandbox_mode = "workspace-write"\n');
    expect(load().mode).toBe("workspace-write");
    write('mode = "auto"\nsandbox_mode = "read-only"\n');
    expect(load().mode).toBe("auto");
  });

  it("lets a profile's sandbox_mode beat the file's mode", () => {
    write('mode = "auto"\nprofile = "safe"\n[profiles.safe]\nsandbox_mode = "read-only"\n');
    expect(load().mode).toBe("read-only");
  });
});

describe("built-in providers", () => {
  it("merges a user table over the built-in of the same id", () => {
    write(`
model_provider = "ollama"
[model_providers.ollama]
base_url = "http://gpu-box:11434/v1"
request_max_retries = 1
`);
    const config = load();
    expect(config.provider).toMatchObject({
      id: "ollama",
      name: "Ollama",
      baseUrl: "http://gpu-box:11434/v1",
      wireApi: "chat",
      requestMaxRetries: 1,
    });
    expect(config.providers.lmstudio?.baseUrl).toBe("http://localhost:1234/v1");
  });

  it("reads the openai key from a replaced env_key", () => {
    write('[model_providers.openai]\nenv_key = "MY_OPENAI_KEY"\n');
    const config = load({}, { MY_OPENAI_KEY: "sk-mine-1234", OPENAI_API_KEY: "sk-default-1234" });
    expect(config.provider).toMatchObject({
      name: "OpenAI",
      envKey: "MY_OPENAI_KEY",
      apiKey: "sk-mine-1234",
    });
  });
});

describe("environment", () => {
  it("moves the openai provider with OPENAI_BASE_URL", () => {
    const config = load({}, { OPENAI_BASE_URL: "http://127.0.0.1:8080/v1", OPENAI_API_KEY: "sk-proxy-1234" });
    expect(config.provider).toMatchObject({ baseUrl: "http://127.0.0.1:8080/v1", apiKey: "sk-proxy-1234" });
  });

  it("ignores an empty OPENAI_BASE_URL and trims stray whitespace", () => {
    expect(load({}, { OPENAI_BASE_URL: "" }).provider.baseUrl).toBe("https://api.openai.com/v1");
    const config = load(
      {},
      { OPENAI_BASE_URL: " http://127.0.0.1:8080/v1/\n", OPENAI_API_KEY: "sk-key-1234\n" },
    );
    expect(config.provider).toMatchObject({ baseUrl: "http://127.0.0.1:8080/v1", apiKey: "sk-key-1234" });
  });

  it("falls back to OPENAI_API_KEY when the base URL came from OPENAI_BASE_URL", () => {
    write('[model_providers.openai]\nenv_key = "PROXY_KEY"\n');
    const env = { OPENAI_BASE_URL: "http://127.0.0.1:8080/v1", OPENAI_API_KEY: "sk-fallback-1234" };
    expect(load({}, env).provider.apiKey).toBe("sk-fallback-1234");
    expect(load({}, { ...env, PROXY_KEY: "proxy-key-1234" }).provider.apiKey).toBe("proxy-key-1234");
  });

  it("does not fall back when the file sets the base URL", () => {
    write('[model_providers.openai]\nbase_url = "http://file-host/v1"\nenv_key = "PROXY_KEY"\n');
    const config = load(
      {},
      { OPENAI_BASE_URL: "http://127.0.0.1:8080/v1", OPENAI_API_KEY: "sk-fallback-1234" },
    );
    expect(config.provider.baseUrl).toBe("http://file-host/v1");
    expect(config.provider.apiKey).toBeUndefined();
  });

  it("rejects a malformed OPENAI_BASE_URL only when openai is selected", () => {
    const error = configError(() => load({}, { OPENAI_BASE_URL: "localhost:8080" }));
    expect(error.message).toContain("OPENAI_BASE_URL must be an http(s) URL");
    expect(error.key).toBe("OPENAI_BASE_URL");
    const config = load({ overrides: ["model_provider=ollama"] }, { OPENAI_BASE_URL: "localhost:8080" });
    expect(config.provider.id).toBe("ollama");
    expect(config.providers.openai).toBeUndefined();
  });
});

describe("precedence", () => {
  const layered = `
model = "from-file"
harness = "codex"
max_turn_steps = 10
profile = "work"

[profiles.work]
model = "from-profile"
harness = "claude-code"
max_turn_steps = 20

[profiles.home]
model = "from-home-profile"
`;

  it("file < profile", () => {
    write(layered);
    expect(load()).toMatchObject({ model: "from-profile", harness: "claude-code", maxTurnSteps: 20 });
  });

  it("without a profile the file applies", () => {
    write(layered.replace('profile = "work"', ""));
    expect(load()).toMatchObject({ model: "from-file", harness: "codex", maxTurnSteps: 10 });
  });

  it("--profile beats the file's profile key", () => {
    write(layered);
    expect(load({ profile: "home" })).toMatchObject({ model: "from-home-profile", harness: "codex" });
  });

  it("-c beats the profile, and can pick the profile", () => {
    write(layered);
    expect(load({ overrides: ["max_turn_steps=30"] })).toMatchObject({
      model: "from-profile",
      maxTurnSteps: 30,
    });
    expect(load({ overrides: ["profile=home"] }).model).toBe("from-home-profile");
    expect(load({ overrides: ["profiles.work.model=edited"] }).model).toBe("edited");
  });

  it("--model and --harness beat -c", () => {
    write(layered);
    const config = load({
      model: "from-flag",
      harness: "qwen-code",
      overrides: ["model=from-c", "harness=kimi-cli"],
    });
    expect(config).toMatchObject({ model: "from-flag", harness: "qwen-code" });
  });

  it("a profile may set providers and the selected provider", () => {
    write(`
[profiles.local]
model_provider = "lmstudio"
model_context_window = 32768
[profiles.local.model_providers.lmstudio]
base_url = "http://127.0.0.1:4321/v1"
`);
    const config = load({ profile: "local" });
    expect(config.provider).toMatchObject({ id: "lmstudio", baseUrl: "http://127.0.0.1:4321/v1" });
    expect(config.modelContextWindow).toBe(32_768);
  });
});

describe("-c overrides", () => {
  it("sets dotted keys and creates providers", () => {
    const config = load({
      overrides: [
        'model_providers.mock.base_url="http://127.0.0.1:7777/v1"',
        "model_providers.mock.request_max_retries=2",
        'model_providers.mock.http_headers={ "X-A" = "1" }',
        "model_provider=mock",
      ],
    });
    expect(config.provider).toMatchObject({
      id: "mock",
      baseUrl: "http://127.0.0.1:7777/v1",
      requestMaxRetries: 2,
      httpHeaders: { "X-A": "1" },
    });
  });

  it("parses TOML values and falls back to the raw string", () => {
    const config = load({
      overrides: [
        // The shell turns `-c harness='"kimi-code"'` into this argument.
        'harness="kimi-code"',
        "model=gpt-5.1-codex",
        'models=["a", "b"]',
        "model_context_window = 64000 ",
        "mcp_servers.x.url=http://h/mcp?a=b",
      ],
    });
    expect(config.harness).toBe("kimi-code");
    expect(config.model).toBe("gpt-5.1-codex");
    expect(config.models).toEqual(["a", "b"]);
    expect(config.modelContextWindow).toBe(64_000);
    expect(config.mcpServers).toEqual({ x: { url: "http://h/mcp?a=b" } });
  });

  it("merges into the file's tables and later overrides win", () => {
    write('[model_providers.ollama]\nname = "Box"\n[mcp_servers.a]\ncommand = "a"\n');
    const config = load({
      overrides: [
        "model_provider=ollama",
        "model_providers.ollama.request_max_retries=7",
        "model=one",
        "model=two",
      ],
    });
    expect(config.provider).toMatchObject({
      name: "Box",
      requestMaxRetries: 7,
      baseUrl: "http://localhost:11434/v1",
    });
    expect(config.model).toBe("two");
    expect(config.mcpServers).toEqual({ a: { command: "a" } });
  });

  it("rejects a pair without '=' or with an empty key", () => {
    expect(configError(() => load({ overrides: ["model"] })).message).toContain("-c \"model\": missing '='");
    expect(configError(() => load({ overrides: ["=x"] })).message).toContain("empty key");
    expect(configError(() => load({ overrides: ["a..b=1"] })).message).toContain("empty key");
    expect(configError(() => load({ overrides: ["__proto__.x=1"] })).message).toContain("reserved key");
  });

  it("names -c, the key and the expectation for a wrong type", () => {
    const error = configError(() =>
      load({
        overrides: [
          'model_providers.mock.base_url="http://x/v1"',
          "model_providers.mock.request_max_retries=five",
        ],
      }),
    );
    expect(error.message).toBe(
      '-c: model_providers.mock.request_max_retries: expected an integer between 0 and 100, got "five"',
    );
    expect(error.key).toBe("model_providers.mock.request_max_retries");
  });
});

describe("wire API", () => {
  const responses =
    'model_provider = "mock"\n[model_providers.mock]\nbase_url = "http://127.0.0.1:1/v1"\nwire_api = "responses"\n';

  it.each([
    ["responses", "responses"],
    ["messages", "messages"],
  ] as const)("accepts wire_api = %j for the selected provider", (wire, expected) => {
    write(responses.replace('"responses"', JSON.stringify(wire)));
    expect(load().provider.wireApi).toBe(expected);
  });

  it("--chat-completions on a messages-only preset says which providers speak chat", () => {
    write('model_provider = "anthropic"\n');
    const error = configError(() =>
      load({ chatCompletions: true }, { ANTHROPIC_API_KEY: "sk-ant-test-1234" }),
    );
    expect(error.message).toBe(
      `--chat-completions: anthropic (https://api.anthropic.com) serves only the Anthropic Messages API; select a provider with a Chat Completions endpoint (docs/providers.md lists them) or drop --chat-completions`,
    );
    // Moved to a server of the user's own (a proxy that speaks both), the flag is theirs to use.
    write('model_provider = "anthropic"\n[model_providers.anthropic]\nbase_url = "http://127.0.0.1:9/v1"\n');
    expect(load({ chatCompletions: true }).provider.wireApi).toBe("chat");
  });

  it("--chat-completions forces chat for the selected provider only", () => {
    write(`${responses}[model_providers.other]\nbase_url = "http://127.0.0.1:2/v1"\nwire_api = "messages"\n`);
    const config = load({ chatCompletions: true });
    expect(config.provider.wireApi).toBe("chat");
    expect(config.providers.mock?.wireApi).toBe("chat");
    expect(config.providers.other?.wireApi).toBe("messages");
  });

  it("quotes a provider id that is not a bare key", () => {
    write(
      'model_provider = "my.host"\n[model_providers."my.host"]\nbase_url = "http://h/v1"\nwire_api = "soap"\n',
    );
    const error = configError(() => load());
    expect(error.key).toBe('model_providers."my.host".wire_api');
    expect(error.message).toBe(
      `${file}: model_providers."my.host".wire_api: expected one of "chat", "responses", "messages", got "soap"`,
    );
  });

  it("does not check providers that are not selected", () => {
    write('[model_providers.claude]\nbase_url = "https://api.anthropic.com/v1"\nwire_api = "messages"\n');
    const config = load();
    expect(config.provider.id).toBe("openai");
    expect(config.providers.claude?.wireApi).toBe("messages");
  });
});

describe("reasoning keys", () => {
  it("carries model_reasoning_effort, model_reasoning_summary and model_thinking_budget; a profile wins", () => {
    write(
      'model_reasoning_effort = "high"\nmodel_reasoning_summary = "concise"\nmodel_thinking_budget = 8000\n[profiles.fast]\nmodel_reasoning_effort = "low"\n',
    );
    expect(load()).toMatchObject({ reasoning: { effort: "high", summary: "concise" }, thinkingBudget: 8000 });
    expect(load({ profile: "fast" }).reasoning).toEqual({ effort: "low", summary: "concise" });
    expect(load({ overrides: ["model_thinking_budget=2048"] }).thinkingBudget).toBe(2048);
  });

  it("leaves them unset when nothing sets them", () => {
    const config = load();
    expect(config.reasoning).toBeUndefined();
    expect(config.thinkingBudget).toBeUndefined();
  });

  it.each([
    [
      'model_reasoning_effort = "extreme"',
      'model_reasoning_effort: expected one of "none", "minimal", "low", "medium", "high", "xhigh", got "extreme"',
    ],
    [
      'model_reasoning_summary = "short"',
      'model_reasoning_summary: expected one of "auto", "concise", "detailed", "none", got "short"',
    ],
    [
      "model_thinking_budget = 500",
      "model_thinking_budget: expected a number of tokens, an integer of at least 1024, got 500",
    ],
    [
      'model_thinking_budget = "lots"',
      'model_thinking_budget: expected a number of tokens, an integer of at least 1024, got "lots"',
    ],
    [
      '[model_providers.m]\nreasoning_back = "always"',
      'model_providers.m.reasoning_back: expected one of "present", "never", got "always"',
    ],
    [
      '[model_providers.m]\nauth_style = "basic"',
      'model_providers.m.auth_style: expected one of "x-api-key", "bearer", got "basic"',
    ],
    ["[model_providers.m]\nextra_body = 1", "model_providers.m.extra_body: expected a table, got 1"],
  ])("rejects %j with the key and the expectation", (toml, message) => {
    write(`${toml}\n`);
    expect(configError(() => load()).message).toBe(`${file}: ${message}`);
  });

  it("carries reasoning_back, extra_body and auth_style of a provider of the user's own", () => {
    write(
      'model_provider = "proxy"\n[model_providers.proxy]\nbase_url = "http://127.0.0.1:9"\nwire_api = "messages"\nauth_style = "bearer"\nreasoning_back = "never"\nextra_body = { top_k = 20, chat_template_kwargs = { enable_thinking = true } }\n',
    );
    expect(load().provider).toMatchObject({
      wireApi: "messages",
      authStyle: "bearer",
      reasoningBack: "never",
      extraBody: { top_k: 20, chat_template_kwargs: { enable_thinking: true } },
    });
  });
});

describe("errors", () => {
  it("names file, line and column of a TOML syntax error", () => {
    write('model = "a"\n\nharness = = "x"\n');
    const error = configError(() => load());
    expect(error.message).toMatch(new RegExp(`^${escapeRegExp(file)}:3:\\d+: TOML syntax error: `));
    expect(error.file).toBe(file);
  });

  it("names the file, dotted key, expectation and value of a wrong type", () => {
    write('[model_providers.mock]\nbase_url = "http://x/v1"\nrequest_max_retries = "five"\n');
    const error = configError(() => load());
    expect(error.message).toBe(
      `${file}: model_providers.mock.request_max_retries: expected an integer between 0 and 100, got "five"`,
    );
    expect(error.key).toBe("model_providers.mock.request_max_retries");
    expect(error.file).toBe(file);
  });

  it.each([
    [
      'mode = "yolo"',
      'mode: expected one of "read-only", "workspace-write", "auto", "full-access", "plan", got "yolo"',
    ],
    ["max_turn_steps = 0", "max_turn_steps: expected a positive integer, got 0"],
    ["model_context_window = 1.5", "model_context_window: expected a positive integer, got 1.5"],
    ["model = 5", "model: expected a string, got 5"],
    ['models = ["a", 2]', "models[1]: expected a string, got 2"],
    ["models = 'a'", 'models: expected an array of strings, got "a"'],
    [
      "[model_providers.m]\nrequest_max_retries = 101",
      "model_providers.m.request_max_retries: expected an integer between 0 and 100, got 101",
    ],
    [
      '[model_providers.m]\nwire_api = "grpc"',
      'model_providers.m.wire_api: expected one of "chat", "responses", "messages", got "grpc"',
    ],
    [
      '[model_providers.m]\nbase_url = "ftp://h"',
      'model_providers.m.base_url: expected an http(s) URL, got "ftp://h"',
    ],
    [
      "[model_providers.m]\nstream_idle_timeout_ms = -1",
      "model_providers.m.stream_idle_timeout_ms: expected a positive integer, got -1",
    ],
    [
      '[model_providers."my.host"]\nquery_params = 3',
      'model_providers."my.host".query_params: expected a table of strings, got 3',
    ],
    ['model_providers = "x"', 'model_providers: expected a table, got "x"'],
    [
      'sandbox_mode = "none"',
      'sandbox_mode: expected one of "read-only", "workspace-write", "danger-full-access", got "none"',
    ],
    ["mcp_servers = [1]", "mcp_servers: expected a table, got an array"],
  ])("%s", (toml, expected) => {
    write(toml);
    expect(configError(() => load()).message).toBe(`${file}: ${expected}`);
  });

  it("lists every wrong key", () => {
    write('model = 1\nmode = "x"\n');
    const message = configError(() => load()).message;
    expect(message).toContain(`${file}: model: expected a string`);
    expect(message).toContain(`${file}: mode: expected one of`);
  });

  it("names the profile's key", () => {
    write('[profiles.work]\nmax_turn_steps = "many"\n');
    const error = configError(() => load({ profile: "work" }));
    expect(error.message).toBe(
      `${file}: profiles.work.max_turn_steps: expected a positive integer, got "many"`,
    );
    expect(error.key).toBe("profiles.work.max_turn_steps");
  });

  it("does not validate profiles that are not selected", () => {
    write('[profiles.other]\nmax_turn_steps = "many"\n');
    expect(load().maxTurnSteps).toBe(100);
  });

  it("lists the known providers for an unknown model_provider", () => {
    write('model_provider = "nope"\n[model_providers.mock]\nbase_url = "http://x/v1"\n');
    const error = configError(() => load());
    expect(error.message).toBe(
      `${file}: model_provider = "nope" names an unknown provider; known providers: ${[...providerPresets().map((p) => p.id), "mock"].sort().join(", ")}`,
    );
    expect(error.key).toBe("model_provider");
    expect(configError(() => load({ overrides: ["model_provider=zz"] })).message).toMatch(
      /^-c: model_provider = "zz"/,
    );
  });

  it("rejects an unknown profile", () => {
    write("[profiles.work]\nmodel = 'm'\n[profiles.home]\nmodel = 'h'\n");
    const error = configError(() => load({ profile: "play" }));
    expect(error.message).toBe(`${file}: profile "play" is not defined; known profiles: home, work`);
    write('profile = "gone"\n');
    expect(configError(() => load()).message).toContain('profile "gone" is not defined');
  });

  it("requires base_url for a selected provider that is not built in, and drops an unselected one", () => {
    write('[model_providers.myhost]\nenv_key = "MYHOST_API_KEY"\n');
    expect(load().providers.myhost).toBeUndefined();
    const error = configError(() => load({ overrides: ["model_provider=myhost"] }));
    expect(error.key).toBe("model_providers.myhost.base_url");
    expect(error.message).toBe(
      `${file}: model_providers.myhost.base_url is required for a provider that is not built in`,
    );
  });

  it("reports a config path that cannot be read", () => {
    fs.mkdirSync(file);
    expect(configError(() => load()).message).toContain(`${file}: cannot read the config file`);
  });

  it("never puts an API key in a message", () => {
    const key = "sk-live-abcdefghijklmnop";
    const env = { OPENAI_API_KEY: key };
    write(`model_context_window = "${key}"\n`);
    expect(configError(() => load({}, env)).message).not.toContain(key);
    write(`[model_providers.m]\nhttp_headers = { Authorization = ["Bearer ${key}"] }\n`);
    const headerError = configError(() => load({}, {})).message;
    expect(headerError).toBe(
      `${file}: model_providers.m.http_headers.Authorization: expected a string, got an array`,
    );
    write(`api_key = "${key}"\nmodel = = 1\n`);
    expect(configError(() => load({}, env)).message).not.toContain(key);
    expect(configError(() => load({ overrides: [`max_turn_steps=${key}`] }, env)).message).not.toContain(key);
    // Longer than the 60 characters an error quotes: no prefix of it may leak either.
    const long = `sk-proj-${"x".repeat(40)}${"y".repeat(40)}`;
    write(`model = ["${long}"]\n`);
    const longError = configError(() => load({}, { OPENAI_API_KEY: long })).message;
    expect(longError).toBe(`${file}: model: expected a string, got an array`);
    write(`harness = 1\nmodel_context_window = "${long}"\n`);
    const prefixError = configError(() => load({}, { OPENAI_API_KEY: long })).message;
    expect(prefixError).toContain("model_context_window: expected a positive integer, got a string");
    expect(prefixError).not.toContain("sk-proj-xxxx");
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

describe("[sandbox]", () => {
  it("per_session_helper is on unless the user's config turns it off", () => {
    write('model = "m"\n');
    expect(load().sandbox).toEqual({ perSessionHelper: true });
    write('model = "m"\n[sandbox]\nper_session_helper = false\n');
    expect(load().sandbox).toEqual({ perSessionHelper: false });
  });

  it("refuses a per_session_helper that is not a boolean, naming the key", () => {
    write('model = "m"\n[sandbox]\nper_session_helper = "yes"\n');
    expect(configError(() => load()).message).toMatch(/per_session_helper.*expected true or false/);
  });
});

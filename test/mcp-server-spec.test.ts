import { parse as parseToml } from "smol-toml";
import { describe, expect, it } from "vitest";
import { parseMcpServers } from "../src/tools/mcp/mcp-server-spec.js";

const config = (toml: string) => (parseToml(toml).mcp_servers ?? {}) as Record<string, unknown>;

describe("parseMcpServers", () => {
  it("reads Codex-style [mcp_servers.<id>] tables", () => {
    const { servers, problems } = parseMcpServers({
      config: config(`
        [mcp_servers.files]
        command = "npx"
        args = ["-y", "@modelcontextprotocol/server-filesystem", "."]
        cwd = "sub"
        env_vars = ["GITHUB_TOKEN"]
        startup_timeout_sec = 20
        tool_timeout_sec = 2.5
        enabled_tools = ["read_text_file"]
        disabled_tools = ["write_file"]
        approval_mode = "prompt" # upstream keys we do not know are tolerated
        [mcp_servers.files.env]
        DEBUG = "1"

        [mcp_servers.remote]
        url = "https://mcp.example.com/mcp"
        bearer_token_env_var = "REMOTE_TOKEN"
        http_headers = { "X-Org" = "acme" }
        env_http_headers = { "X-Team" = "TEAM_VAR" }
        startup_timeout_ms = 3000

        [mcp_servers.off]
        command = 42 # invalid, but disabled: not reported
        enabled = false
      `),
      acp: [],
    });
    expect(problems).toEqual([]);
    expect(servers).toEqual([
      {
        name: "files",
        source: "config",
        transport: {
          type: "stdio",
          command: "npx",
          args: ["-y", "@modelcontextprotocol/server-filesystem", "."],
          env: { DEBUG: "1" },
          envVars: ["GITHUB_TOKEN"],
          cwd: "sub",
        },
        startupTimeoutMs: 20_000,
        toolTimeoutMs: 2_500,
        enabledTools: ["read_text_file"],
        disabledTools: ["write_file"],
      },
      {
        name: "remote",
        source: "config",
        transport: {
          type: "http",
          url: "https://mcp.example.com/mcp",
          headers: { "X-Org": "acme" },
          envHeaders: { "X-Team": "TEAM_VAR" },
          bearerTokenEnvVar: "REMOTE_TOKEN",
        },
        startupTimeoutMs: 3_000,
        toolTimeoutMs: 60_000,
        enabledTools: undefined,
        disabledTools: [],
      },
    ]);
  });

  it("reads ACP stdio and http servers with default timeouts", () => {
    const { servers, problems } = parseMcpServers({
      config: {},
      acp: [
        {
          name: "editor-tools",
          command: "/usr/bin/editor-mcp",
          args: ["--stdio"],
          env: [{ name: "A", value: "1" }],
        },
        {
          type: "http",
          name: "web",
          url: "http://127.0.0.1:9000/mcp",
          headers: [{ name: "X-K", value: "v" }],
        },
      ],
    });
    expect(problems).toEqual([]);
    expect(servers).toEqual([
      {
        name: "editor-tools",
        source: "acp",
        transport: {
          type: "stdio",
          command: "/usr/bin/editor-mcp",
          args: ["--stdio"],
          env: { A: "1" },
          envVars: [],
        },
        startupTimeoutMs: 10_000,
        toolTimeoutMs: 60_000,
        disabledTools: [],
      },
      {
        name: "web",
        source: "acp",
        transport: {
          type: "http",
          url: "http://127.0.0.1:9000/mcp",
          headers: { "X-K": "v" },
          envHeaders: {},
        },
        startupTimeoutMs: 10_000,
        toolTimeoutMs: 60_000,
        disabledTools: [],
      },
    ]);
  });

  it("lets the editor's server replace a configured one of the same name, and says so", () => {
    const { servers, problems } = parseMcpServers({
      config: config(`
        [mcp_servers.shared]
        url = "https://config.example.com/mcp"
        [mcp_servers.kept]
        command = "kept-server"
      `),
      acp: [{ name: "shared", command: "/opt/editor-server", args: [], env: [] }],
    });
    expect(servers.map((s) => [s.name, s.source, s.transport.type])).toEqual([
      ["kept", "config", "stdio"],
      ["shared", "acp", "stdio"],
    ]);
    expect(problems).toEqual([
      'MCP server "shared" from the editor replaces mcp_servers.shared of config.toml',
    ]);
  });

  it.each([
    ["not a table", { x: "npx" }, "mcp_servers.x: expected a table"],
    ["neither command nor url", { x: { args: [] } }, "mcp_servers.x: needs command (stdio) or url (HTTP)"],
    [
      "both command and url",
      { x: { command: "a", url: "http://h" } },
      "mcp_servers.x: set either command (stdio) or url (HTTP), not both",
    ],
    [
      "an inline token",
      { x: { url: "https://h", bearer_token: "s3cret" } },
      "mcp_servers.x: an inline bearer_token is not supported; set bearer_token_env_var instead",
    ],
    ["a bad url", { x: { url: "ftp://h" } }, "mcp_servers.x: url: expected an http(s) URL"],
    ["an empty command", { x: { command: "" } }, "mcp_servers.x: command: expected a non-empty string"],
    ["bad args", { x: { command: "a", args: "b c" } }, "mcp_servers.x: args: expected an array of strings"],
    ["a bad env value", { x: { command: "a", env: { K: 1 } } }, "mcp_servers.x: env.K: expected a string"],
    [
      "a bad timeout",
      { x: { command: "a", tool_timeout_sec: -1 } },
      "mcp_servers.x: tool_timeout_sec: expected a positive number",
    ],
    [
      "a dotted id",
      { "my.srv": { command: "" } },
      'mcp_servers."my.srv": command: expected a non-empty string',
    ],
  ])("reports %s in config and skips the server", (_label, table, problem) => {
    const { servers, problems } = parseMcpServers({ config: table, acp: [] });
    expect(servers).toEqual([]);
    expect(problems).toEqual([problem]);
  });

  it.each([
    [
      "sse",
      { type: "sse", name: "old", url: "http://h/sse", headers: [] },
      'editor MCP server "old": the SSE transport is not supported; use type "http" (Streamable HTTP)',
    ],
    ["an unknown type", { type: "ws", name: "w" }, 'editor MCP server "w": unknown transport type "ws"'],
    ["no name", { command: "/bin/x", args: [], env: [] }, "editor MCP server #1: name: expected a string"],
    ["no command", { name: "n", args: [], env: [] }, 'editor MCP server "n": command: expected a string'],
    [
      "a bad env list",
      { name: "n", command: "/x", env: { A: "1" } },
      'editor MCP server "n": env: expected a list of {name, value}',
    ],
    [
      "a bad http url",
      { type: "http", name: "h", url: "nope", headers: [] },
      'editor MCP server "h": url: expected an http(s) URL',
    ],
    ["a non-object", "stdio:/bin/x", "editor MCP server #1: expected an object"],
  ])("reports %s from the editor and skips the server", (_label, entry, problem) => {
    const { servers, problems } = parseMcpServers({ config: {}, acp: [entry] });
    expect(servers).toEqual([]);
    expect(problems).toEqual([problem]);
  });

  it("keeps the first of two editor servers with one name", () => {
    const { servers, problems } = parseMcpServers({
      config: {},
      acp: [
        { name: "dup", command: "/first", args: [], env: [] },
        { name: "dup", command: "/second", args: [], env: [] },
      ],
    });
    expect(servers.map((s) => s.transport.type === "stdio" && s.transport.command)).toEqual(["/first"]);
    expect(problems).toEqual(['editor MCP server "dup" is listed twice; the first one is used']);
  });

  it("never quotes values, which may be secrets", () => {
    const { problems } = parseMcpServers({
      config: { x: { url: "https://h", http_headers: { Authorization: 12345 } } },
      acp: [],
    });
    expect(problems).toEqual(["mcp_servers.x: http_headers.Authorization: expected a string"]);
  });

  it("never throws on garbage", () => {
    expect(parseMcpServers({ config: null as never, acp: null as never })).toEqual({
      servers: [],
      problems: [],
    });
  });
});

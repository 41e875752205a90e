import { z } from "zod";
import { isHttpUrl } from "../../config/config-schema.js";
import { formatKeyPath, isTable } from "../../config/tables.js";

export const DEFAULT_STARTUP_TIMEOUT_MS = 10_000;
export const DEFAULT_TOOL_TIMEOUT_MS = 60_000;

export type McpTransportSpec =
  | {
      type: "stdio";
      command: string;
      args: string[];
      /** Set verbatim in the server's environment, on top of the child-env allowlist. */
      env: Record<string, string>;
      /** Names passed through from the daemon's environment (Codex `env_vars`), secrets included. */
      envVars: string[];
      /** Relative paths resolve against the session cwd; absent means the session cwd. */
      cwd?: string;
    }
  | {
      type: "http";
      url: string;
      headers: Record<string, string>;
      /** Header name → environment variable holding its value (Codex `env_http_headers`). */
      envHeaders: Record<string, string>;
      /** `Authorization: Bearer $VAR`, read when the server is started. */
      bearerTokenEnvVar?: string;
    };

/** One MCP server to connect, from `config.toml` or from the editor (ACP `session/new`). */
export interface McpServerSpec {
  name: string;
  source: "config" | "acp";
  transport: McpTransportSpec;
  startupTimeoutMs: number;
  toolTimeoutMs: number;
  /** Only these tools are exposed (Codex `enabled_tools`); undefined exposes all. */
  enabledTools?: string[];
  /** Never exposed, even when listed in `enabledTools`. */
  disabledTools: string[];
}

const seconds = z
  .number({ error: "expected a number of seconds" })
  .positive({ error: "expected a positive number" });
const strings = z.array(z.string({ error: "expected a string" }), { error: "expected an array of strings" });
const stringTable = z.record(z.string(), z.string({ error: "expected a string" }), {
  error: "expected a table of strings",
});
const httpUrl = z
  .string({ error: "expected an http(s) URL" })
  .refine(isHttpUrl, { error: "expected an http(s) URL" });
const nonEmpty = z.string({ error: "expected a string" }).min(1, { error: "expected a non-empty string" });

/** Keys every `[mcp_servers.<id>]` table may have. Tables are loose: upstream adds keys we ignore. */
const common = {
  enabled: z.boolean({ error: "expected true or false" }).optional(),
  startup_timeout_sec: seconds.optional(),
  /** Older Codex spelling. */
  startup_timeout_ms: z.number().int().positive({ error: "expected a positive integer" }).optional(),
  tool_timeout_sec: seconds.optional(),
  enabled_tools: strings.optional(),
  disabled_tools: strings.optional(),
};

const Common = z.looseObject(common);

const ConfigStdio = z.looseObject({
  command: nonEmpty,
  args: strings.default([]),
  env: stringTable.default({}),
  env_vars: strings.default([]),
  cwd: nonEmpty.optional(),
});

const ConfigHttp = z.looseObject({
  url: httpUrl,
  http_headers: stringTable.default({}),
  env_http_headers: stringTable.default({}),
  bearer_token_env_var: nonEmpty.optional(),
});

const NameValues = z
  .array(z.object({ name: z.string(), value: z.string() }), { error: "expected a list of {name, value}" })
  .default([]);
const toRecord = (pairs: Array<{ name: string; value: string }>) =>
  Object.fromEntries(pairs.map((pair) => [pair.name, pair.value]));

/** ACP `McpServerStdio` has no `type`; some clients send `"stdio"` anyway. */
const AcpStdio = z.looseObject({
  type: z.literal("stdio").optional(),
  name: nonEmpty,
  command: nonEmpty,
  args: strings.default([]),
  env: NameValues,
});

const AcpHttp = z.looseObject({ type: z.literal("http"), name: nonEmpty, url: httpUrl, headers: NameValues });

export interface ParseMcpServersInput {
  /** The `[mcp_servers.<id>]` tables of config.toml, verbatim. */
  config: Record<string, unknown>;
  /** ACP `session/new` (or `session/load`) `mcpServers`, verbatim. */
  acp: unknown[];
}

/**
 * Validates both sources and merges them: an editor (ACP) server replaces a configured server
 * of the same name, whole, never deep-merged (the editor is the authority for its session).
 * Disabled config servers are left out silently. Never throws: every invalid entry, every
 * clash and every unsupported transport is one line in `problems`, naming the server.
 * Messages never quote values (env and headers hold secrets).
 */
export function parseMcpServers(input: ParseMcpServersInput): {
  servers: McpServerSpec[];
  problems: string[];
} {
  const problems: string[] = [];
  const fromConfig = new Map<string, McpServerSpec>();
  for (const [id, raw] of Object.entries(input.config ?? {})) {
    const spec = parseConfigEntry(id, raw, problems);
    if (spec) fromConfig.set(id, spec);
  }
  const fromAcp = new Map<string, McpServerSpec>();
  for (const [index, raw] of (Array.isArray(input.acp) ? input.acp : []).entries()) {
    const spec = parseAcpEntry(index, raw, problems);
    if (!spec) continue;
    if (fromAcp.has(spec.name)) {
      problems.push(`editor MCP server "${spec.name}" is listed twice; the first one is used`);
      continue;
    }
    fromAcp.set(spec.name, spec);
  }
  for (const name of fromAcp.keys()) {
    if (!fromConfig.delete(name)) continue;
    problems.push(
      `MCP server "${name}" from the editor replaces mcp_servers.${formatKeyPath([name])} of config.toml`,
    );
  }
  return { servers: [...fromConfig.values(), ...fromAcp.values()], problems };
}

function parseConfigEntry(id: string, raw: unknown, problems: string[]): McpServerSpec | undefined {
  const where = `mcp_servers.${formatKeyPath([id])}`;
  if (!isTable(raw)) {
    problems.push(`${where}: expected a table`);
    return undefined;
  }
  if (raw.enabled === false) return undefined;
  if (id.trim() === "") {
    problems.push(`${where}: a server needs a non-empty name`);
    return undefined;
  }
  if ("bearer_token" in raw) {
    problems.push(`${where}: an inline bearer_token is not supported; set bearer_token_env_var instead`);
    return undefined;
  }
  const hasCommand = "command" in raw;
  const hasUrl = "url" in raw;
  if (hasCommand === hasUrl) {
    problems.push(
      `${where}: ${hasCommand ? "set either command (stdio) or url (HTTP), not both" : "needs command (stdio) or url (HTTP)"}`,
    );
    return undefined;
  }
  const transport = hasCommand ? configStdio(where, raw, problems) : configHttp(where, raw, problems);
  const entry = validate(Common, raw, where, problems);
  if (!transport || !entry) return undefined;
  const startupSec =
    entry.startup_timeout_sec ?? (entry.startup_timeout_ms ?? DEFAULT_STARTUP_TIMEOUT_MS) / 1000;
  return {
    name: id,
    source: "config",
    transport,
    startupTimeoutMs: Math.round(startupSec * 1000),
    toolTimeoutMs: Math.round((entry.tool_timeout_sec ?? DEFAULT_TOOL_TIMEOUT_MS / 1000) * 1000),
    enabledTools: entry.enabled_tools,
    disabledTools: entry.disabled_tools ?? [],
  };
}

function parseAcpEntry(index: number, raw: unknown, problems: string[]): McpServerSpec | undefined {
  const named = isTable(raw) && typeof raw.name === "string" && raw.name !== "";
  const where = named ? `editor MCP server "${raw.name}"` : `editor MCP server #${index + 1}`;
  if (!isTable(raw)) {
    problems.push(`${where}: expected an object`);
    return undefined;
  }
  if (raw.type === "sse") {
    problems.push(`${where}: the SSE transport is not supported; use type "http" (Streamable HTTP)`);
    return undefined;
  }
  if (raw.type !== undefined && raw.type !== "stdio" && raw.type !== "http") {
    problems.push(`${where}: unknown transport type ${JSON.stringify(raw.type)}`);
    return undefined;
  }
  const parsed = raw.type === "http" ? acpHttp(where, raw, problems) : acpStdio(where, raw, problems);
  if (!parsed) return undefined;
  const { name, transport } = parsed;
  return {
    name,
    source: "acp",
    transport,
    startupTimeoutMs: DEFAULT_STARTUP_TIMEOUT_MS,
    toolTimeoutMs: DEFAULT_TOOL_TIMEOUT_MS,
    disabledTools: [],
  };
}

function configStdio(where: string, raw: unknown, problems: string[]): McpTransportSpec | undefined {
  const entry = validate(ConfigStdio, raw, where, problems);
  if (!entry) return undefined;
  const { command, args, env, env_vars, cwd } = entry;
  return { type: "stdio", command, args, env, envVars: env_vars, cwd };
}

function configHttp(where: string, raw: unknown, problems: string[]): McpTransportSpec | undefined {
  const entry = validate(ConfigHttp, raw, where, problems);
  if (!entry) return undefined;
  const { url, http_headers, env_http_headers, bearer_token_env_var } = entry;
  return {
    type: "http",
    url,
    headers: http_headers,
    envHeaders: env_http_headers,
    bearerTokenEnvVar: bearer_token_env_var,
  };
}

type Named = { name: string; transport: McpTransportSpec };

function acpStdio(where: string, raw: unknown, problems: string[]): Named | undefined {
  const entry = validate(AcpStdio, raw, where, problems);
  if (!entry) return undefined;
  const { name, command, args, env } = entry;
  return { name, transport: { type: "stdio", command, args, env: toRecord(env), envVars: [] } };
}

function acpHttp(where: string, raw: unknown, problems: string[]): Named | undefined {
  const entry = validate(AcpHttp, raw, where, problems);
  if (!entry) return undefined;
  const { name, url, headers } = entry;
  return { name, transport: { type: "http", url, headers: toRecord(headers), envHeaders: {} } };
}

function validate<T>(schema: z.ZodType<T>, raw: unknown, where: string, problems: string[]): T | undefined {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  problems.push(...describe(where, parsed.error));
  return undefined;
}

function describe(where: string, error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const key = issue.path.length > 0 ? `${formatKeyPath(issue.path)}: ` : "";
    return `${where}: ${key}${issue.message}`;
  });
}

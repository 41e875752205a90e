import path from "node:path";
import { buildChildEnv } from "../exec/child-env.js";
import type { McpServerSpec } from "./mcp-server-spec.js";
import type { ResolvedTransport } from "./open-client.js";

export interface ResolveOptions {
  /** The daemon's environment. */
  env: Record<string, string | undefined>;
  /** Base for a relative (or absent) stdio `cwd`. */
  cwd?: string;
}

/**
 * The values a server is started with. Stdio servers get the child-env allowlist of
 * `buildChildEnv` (no secrets), the variables named in `env_vars` (secrets allowed: the user
 * named them), and their `env` table last. HTTP headers are read from the environment now.
 * Throws when a variable the server depends on is not set.
 */
export function resolveTransport(spec: McpServerSpec, options: ResolveOptions): ResolvedTransport {
  const { transport } = spec;
  if (transport.type === "stdio") {
    return {
      type: "stdio",
      command: transport.command,
      args: transport.args,
      env: buildChildEnv(options.env, { include: transport.envVars, set: transport.env }),
      cwd: path.resolve(options.cwd ?? process.cwd(), transport.cwd ?? "."),
    };
  }
  const headers = { ...transport.headers };
  for (const [header, variable] of Object.entries(transport.envHeaders)) {
    const value = options.env[variable];
    if (value !== undefined && value !== "") headers[header] = value;
  }
  if (transport.bearerTokenEnvVar !== undefined) {
    const token = options.env[transport.bearerTokenEnvVar];
    if (token === undefined || token === "") {
      throw new Error(
        `environment variable ${transport.bearerTokenEnvVar} (bearer_token_env_var) is not set`,
      );
    }
    headers.Authorization = `Bearer ${token}`;
  }
  return { type: "http", url: transport.url, headers };
}

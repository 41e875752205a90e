/**
 * What a tool call's ACP fields say in Codex's terms, shared by the Codex-shaped edges
 * (`exec --json` and the app-server): the command line, the MCP server and tool, the exit code.
 */

export function commandOf(input: unknown): string | undefined {
  if (typeof input !== "object" || input === null) return undefined;
  const { command, cmd } = input as { command?: unknown; cmd?: unknown };
  const value = command ?? cmd;
  if (typeof value === "string") return value;
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) return value.join(" ");
  return undefined;
}

/** MCP tools are titled `server: tool` and named `mcp__server__tool`; anything else is built in. */
export function mcpNames(name: string | undefined, title: string, builtin: string): [string, string] {
  if (name?.startsWith("mcp__")) {
    const titled = /^([^:]+): (.+)$/.exec(title);
    if (titled) return [titled[1] as string, titled[2] as string];
    const rest = name.slice(5);
    const cut = rest.indexOf("__");
    if (cut > 0) return [rest.slice(0, cut), rest.slice(cut + 2)];
  }
  return [builtin, name ?? title];
}

/** Harnesses tell the model a command's exit code in their own words; these are the shapes in use. */
const EXIT_CODE_PATTERNS = [
  /^Process exited with code (-?\d+)$/m,
  /^exit code:? (-?\d+)\b/im,
  /<returncode>(-?\d+)<\/returncode>/,
  /\bexit code:? (-?\d+)/i,
];

export function exitCodeOf(output: string | undefined): number | undefined {
  if (output === undefined) return undefined;
  for (const pattern of EXIT_CODE_PATTERNS) {
    const match = pattern.exec(output);
    if (match) return Number(match[1]);
  }
  return undefined;
}

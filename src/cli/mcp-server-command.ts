import { serveMcp } from "../mcp-server/serve.js";
import { parseCommandArgs } from "./args.js";
import { runtimeOrReport } from "./runtime.js";
import { VERSION } from "./version.js";

/** `interpreter mcp-server`: an MCP server on stdin/stdout; stdout carries nothing but MCP. */
export async function mcpServerCommand(argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, {});
  const runtime = runtimeOrReport({ cli: args.overrides });
  if (!runtime) return 1;
  runtime.logger.info({ version: VERSION }, "mcp server starting");
  try {
    await serveMcp(runtime, VERSION);
    return 0;
  } finally {
    await runtime.shutdown();
  }
}

import { serveMcp } from "../mcp-server/serve.js";
import { parseCommandArgs } from "./args.js";
import { createRuntime, type Runtime } from "./runtime.js";
import { VERSION } from "./version.js";

/** `interpreter mcp-server`: an MCP server on stdin/stdout; stdout carries nothing but MCP. */
export async function mcpServerCommand(argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, {});
  let runtime: Runtime;
  try {
    runtime = createRuntime({ cli: args.overrides });
  } catch (error) {
    process.stderr.write(`interpreter: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  runtime.logger.info({ version: VERSION }, "mcp server starting");
  try {
    await serveMcp(runtime, VERSION);
    return 0;
  } finally {
    await runtime.manager.closeAll();
    await runtime.shutdown();
  }
}

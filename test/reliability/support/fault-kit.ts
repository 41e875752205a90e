import { existsSync, readdirSync, readFileSync } from "node:fs";
import type { ClientContext } from "@agentclientprotocol/sdk/unstable";
import { methods } from "@agentclientprotocol/sdk/unstable";

/** How one `session/prompt` ended, as the editor saw it: a stop reason or a JSON-RPC error. */
export type PromptOutcome =
  | { stopReason: string; error?: undefined }
  | { stopReason?: undefined; error: { code: number; message: string } };

export async function promptOutcome(
  agent: ClientContext,
  sessionId: string,
  text: string,
): Promise<PromptOutcome> {
  try {
    const response = await agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text }],
    });
    return { stopReason: response.stopReason };
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    return { error: { code: Number(code), message: String(message) } };
  }
}

/** Lines of `file` equal to `line` (0 when the file does not exist). */
export function countLines(file: string, line: string): number {
  if (!existsSync(file)) return 0;
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l === line).length;
}

/** Live (non-zombie) processes whose command line contains `marker`, the test runner excluded. */
export function processesWithCmdline(marker: string): Array<{ pid: number; cmdline: string }> {
  const found: Array<{ pid: number; cmdline: string }> = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
      if (state === "Z" || state === "X") continue;
      const cmdline = readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0").join(" ").trim();
      if (cmdline.includes(marker)) found.push({ pid: Number(name), cmdline });
    } catch {
      // ended while we looked
    }
  }
  return found;
}

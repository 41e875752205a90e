import path from "node:path";
import { z } from "zod";
import { fence } from "../../../tools/markdown-fence.js";
import type { ExecResult, Tool } from "../../../tools/types.js";
import { formatDuration, toolUseError } from "../../shared/claude-code-core/format.js";
import {
  BACKGROUND_UNSUPPORTED,
  BASH_DEFAULT_TIMEOUT_MS,
  BASH_MAX_TIMEOUT_MS,
} from "../../shared/claude-code-core/tools/bash.js";
import { bashSchema } from "../tool-schemas.js";
import description from "./bash.md";

/** A successful command's output past this many bytes is saved to a file (upstream's inline limit). */
export const INLINE_LIMIT_BYTES = 64 * 1024;
export const NO_OUTPUT = "(Bash completed with no output)";

const Args = z.looseObject({
  command: z.string().min(1),
  timeout: z.number().positive().nullish(),
  description: z.string().nullish(),
  run_in_background: z.boolean().nullish(),
  dangerouslyDisableSandbox: z.boolean().nullish(),
});
type Args = z.infer<typeof Args>;

/**
 * ZCode `Bash` as upstream Open Interpreter 0.0.40 answers it (`harness_aliases.rs`): the merged
 * output with leading blank lines and trailing whitespace trimmed; a failure as `Exit code N`
 * and the output, test-failure `✗` lines moved after the rest; no output as its own line; a
 * success past 64 KiB saved to the session's scratch folder and shown as a `<persisted-output>`
 * block with a 2 KB preview. A timeout ends as Claude Code's does (exit 143 and its line);
 * `run_in_background` is refused: ZCode has no tool to read or stop such a command.
 */
export function bashTool(options: { scratchDir: string }): Tool<Args> {
  let saved = 0;
  return {
    name: "Bash",
    description,
    kind: "execute",
    capability: "exec",
    parameters: bashSchema,
    schema: Args,
    preview: async (args) => ({ title: args.command }),
    access: (args, ctx) =>
      args.run_in_background ? { type: "none" } : { type: "exec", command: args.command, cwd: ctx.cwd },
    async execute(args, ctx) {
      if (args.run_in_background) return { output: toolUseError(BACKGROUND_UNSUPPORTED), isError: true };
      const timeoutMs = Math.min(args.timeout ?? BASH_DEFAULT_TIMEOUT_MS, BASH_MAX_TIMEOUT_MS);
      const result = await ctx.exec.run({
        command: args.command,
        cwd: ctx.cwd,
        timeoutMs,
        signal: ctx.signal,
        onOutput: ctx.onProgress,
      });
      const display = [{ type: "text" as const, text: fence(result.output) }];
      const output = trimOutput(result.output);
      if (result.timedOut || result.aborted || result.exitCode !== 0) {
        return { output: failureText(result, output, timeoutMs), isError: true, display };
      }
      if (!output) return { output: NO_OUTPUT, display };
      if (Buffer.byteLength(output, "utf8") <= INLINE_LIMIT_BYTES) return { output, display };
      const file = path.join(
        options.scratchDir,
        "tool-results",
        `bash-${Date.now().toString(36)}-${++saved}.txt`,
      );
      await ctx.fs.writeText(file, output);
      return { output: persistedOutput(output, file), display };
    },
  };
}

function failureText(result: ExecResult, output: string, timeoutMs: number): string {
  const body = deferFailureMarkers(output);
  if (result.timedOut)
    return ["Exit code 143", body, `Command timed out after ${formatDuration(timeoutMs)}`]
      .filter(Boolean)
      .join("\n");
  if (result.aborted)
    return [body, "<error>Command was aborted before completion</error>"].filter(Boolean).join("\n");
  return [`Exit code ${result.exitCode ?? 1}`, body].filter(Boolean).join("\n");
}

/** Leading blank lines and trailing whitespace go; indentation of the first line stays. */
export function trimOutput(raw: string): string {
  return raw.trimEnd().replace(/^([ \t]*\n)+/, "");
}

/**
 * Upstream's reordering of a failed test run: lines starting with `✗` go after the rest (the
 * first one unindented), and a leading block of `Error:` / `at ` lines followed by a blank line is
 * dealt out after them, one `Error:` chunk per marker.
 */
export function deferFailureMarkers(output: string): string {
  const { rest, chunks } = leadingDiagnostics(output);
  const lines = rest.split("\n");
  const markers = lines.filter((line) => line.trimStart().startsWith("✗"));
  if (markers.length === 0) return output;
  const body = lines
    .filter((line) => !line.trimStart().startsWith("✗"))
    .join("\n")
    .trimEnd();
  markers[0] = markers[0]!.trimStart();
  const tail = markers.flatMap((marker, i) => [marker, ...(chunks[i] ?? [])]);
  tail.push(...chunks.slice(markers.length).flat());
  return body ? `${body}\n${tail.join("\n")}` : tail.join("\n");
}

function leadingDiagnostics(output: string): { rest: string; chunks: string[][] } {
  const end = output.indexOf("\n\n");
  if (end <= 0) return { rest: output, chunks: [] };
  const chunks: string[][] = [];
  for (const line of output.slice(0, end).split("\n")) {
    const trimmed = line.trimStart();
    if (!trimmed.startsWith("Error:") && !trimmed.startsWith("at ")) return { rest: output, chunks: [] };
    if (trimmed.startsWith("Error:") || chunks.length === 0) chunks.push([]);
    chunks.at(-1)!.push(line);
  }
  return { rest: output.slice(end + 2), chunks };
}

/** The `<persisted-output>` block: size in KB with one decimal, the path, whole lines up to 2,000 bytes. */
export function persistedOutput(output: string, file: string): string {
  let preview = "";
  for (const line of output.split(/(?<=\n)/)) {
    if (Buffer.byteLength(preview + line, "utf8") > 2_000) break;
    preview += line;
  }
  const size = (Buffer.byteLength(output, "utf8") / 1024).toFixed(1);
  return `<persisted-output>\nOutput too large (${size}KB). Full output saved to: ${file}\n\nPreview (first 2KB):\n${preview.trimEnd()}\n...\n</persisted-output>`;
}

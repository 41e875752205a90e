/**
 * JSON schemas of Claude Code's tools as its CLI serializes them with zod-to-json-schema in the
 * LS/MultiEdit generation (1.0.x, mid 2025): keys `type, properties, required,
 * additionalProperties, $schema`, property keys `type` first, draft-07. Parameter descriptions
 * are upstream's exact strings. Sources: a captured 1.0.x tool dump (satorisz9/mindcraft
 * `src/agent/tools/tools-prompt.md`, commit 2e9a3db) for LS, Read, Edit, MultiEdit, Write, Glob,
 * Grep; the Agent SDK's `sdk-tools.d.ts` (Cometix-Org/Claude-Code-Agent-SDK-Typescript-Tracker,
 * SDK 0.1.27) for Bash; OI `codex-rs/core/src/harness/claude_code.rs` for TodoWrite with
 * `activeForm` and Bash's `run_in_background` wording.
 *
 * Bash leaves out `dangerouslyDisableSandbox`: the permission gate decides about the sandbox,
 * the model never asks to escape it (as the Codex harness leaves out its escalation parameters).
 */

const SCHEMA = "http://json-schema.org/draft-07/schema#";

const str = (description: string) => ({ type: "string", description });
const num = (description: string) => ({ type: "number", description });
const bool = (description: string) => ({ type: "boolean", description });

function object(properties: Record<string, unknown>, required: string[]) {
  return { type: "object", properties, required, additionalProperties: false, $schema: SCHEMA };
}

export const bashSchema = object(
  {
    command: str("The command to execute"),
    timeout: num("Optional timeout in milliseconds (max 600000)"),
    description: str(
      "Clear, concise description of what this command does in 5-10 words, in active voice. Examples:\nInput: ls\nOutput: List files in current directory\n\nInput: git status\nOutput: Show working tree status\n\nInput: npm install\nOutput: Install package dependencies\n\nInput: mkdir foo\nOutput: Create directory 'foo'",
    ),
    run_in_background: bool("Set to true to run this command in the background."),
  },
  ["command"],
);

export const readSchema = object(
  {
    file_path: str("The absolute path to the file to read"),
    offset: num(
      "The line number to start reading from. Only provide if the file is too large to read at once",
    ),
    limit: num("The number of lines to read. Only provide if the file is too large to read at once."),
  },
  ["file_path"],
);

export const writeSchema = object(
  {
    file_path: str("The absolute path to the file to write (must be absolute, not relative)"),
    content: str("The content to write to the file"),
  },
  ["file_path", "content"],
);

export const editSchema = object(
  {
    file_path: str("The absolute path to the file to modify"),
    old_string: str("The text to replace"),
    new_string: str("The text to replace it with (must be different from old_string)"),
    replace_all: {
      type: "boolean",
      default: false,
      description: "Replace all occurences of old_string (default false)",
    },
  },
  ["file_path", "old_string", "new_string"],
);

export const multiEditSchema = object(
  {
    file_path: str("The absolute path to the file to modify"),
    edits: {
      type: "array",
      items: {
        type: "object",
        properties: {
          old_string: str("The text to replace"),
          new_string: str("The text to replace it with"),
          replace_all: {
            type: "boolean",
            default: false,
            description: "Replace all occurences of old_string (default false).",
          },
        },
        required: ["old_string", "new_string"],
        additionalProperties: false,
      },
      minItems: 1,
      description: "Array of edit operations to perform sequentially on the file",
    },
  },
  ["file_path", "edits"],
);

export const globSchema = object(
  {
    pattern: str("The glob pattern to match files against"),
    path: str(
      'The directory to search in. If not specified, the current working directory will be used. IMPORTANT: Omit this field to use the default directory. DO NOT enter "undefined" or "null" - simply omit it for the default behavior. Must be a valid directory path if provided.',
    ),
  },
  ["pattern"],
);

const CONTENT_ONLY = 'Requires output_mode: "content", ignored otherwise.';

export const grepSchema = object(
  {
    pattern: str("The regular expression pattern to search for in file contents"),
    path: str("File or directory to search in (rg PATH). Defaults to current working directory."),
    glob: str('Glob pattern to filter files (e.g. "*.js", "*.{ts,tsx}") - maps to rg --glob'),
    output_mode: {
      type: "string",
      enum: ["content", "files_with_matches", "count"],
      description:
        'Output mode: "content" shows matching lines (supports -A/-B/-C context, -n line numbers, head_limit), "files_with_matches" shows file paths (supports head_limit), "count" shows match counts (supports head_limit). Defaults to "files_with_matches".',
    },
    "-B": num(`Number of lines to show before each match (rg -B). ${CONTENT_ONLY}`),
    "-A": num(`Number of lines to show after each match (rg -A). ${CONTENT_ONLY}`),
    "-C": num(`Number of lines to show before and after each match (rg -C). ${CONTENT_ONLY}`),
    "-n": bool(`Show line numbers in output (rg -n). ${CONTENT_ONLY}`),
    "-i": bool("Case insensitive search (rg -i)"),
    type: str(
      "File type to search (rg --type). Common types: js, py, rust, go, java, etc. More efficient than include for standard file types.",
    ),
    head_limit: num(
      'Limit output to first N lines/entries, equivalent to "| head -N". Works across all output modes: content (limits output lines), files_with_matches (limits file paths), count (limits count entries). When unspecified, shows all results from ripgrep.',
    ),
    multiline: bool(
      "Enable multiline mode where . matches newlines and patterns can span lines (rg -U --multiline-dotall). Default: false.",
    ),
  },
  ["pattern"],
);

export const lsSchema = object(
  {
    path: str("The absolute path to the directory to list (must be absolute, not relative)"),
    ignore: { type: "array", items: { type: "string" }, description: "List of glob patterns to ignore" },
  },
  ["path"],
);

export const todoWriteSchema = object(
  {
    todos: {
      type: "array",
      items: {
        type: "object",
        properties: {
          content: { type: "string", minLength: 1 },
          status: { type: "string", enum: ["pending", "in_progress", "completed"] },
          activeForm: { type: "string", minLength: 1 },
        },
        required: ["content", "status", "activeForm"],
        additionalProperties: false,
      },
      description: "The updated todo list",
    },
  },
  ["todos"],
);

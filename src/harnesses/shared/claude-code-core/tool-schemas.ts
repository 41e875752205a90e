/**
 * JSON schemas of Claude Code 2.1.44's tools as its CLI serializes them (zod v4's JSON Schema
 * output): keys `$schema, type, properties, required, additionalProperties`, the 2020-12
 * dialect, each property's `description` before its `type`. Names, order, types, required lists
 * and enums equal the capture of 2.1.44 (`conformance/harness-requests/claude-code-2.1.44.json`);
 * descriptions of the parameters 2.1.44 added (`pages`, `context`, `offset`,
 * `dangerouslyDisableSandbox`, Skill's) are ours.
 */

const SCHEMA = "https://json-schema.org/draft/2020-12/schema";

const str = (description: string) => ({ description, type: "string" });
const num = (description: string) => ({ description, type: "number" });
const bool = (description: string) => ({ description, type: "boolean" });

function object(properties: Record<string, unknown>, required: string[]) {
  return { $schema: SCHEMA, type: "object", properties, required, additionalProperties: false };
}

export const bashSchema = object(
  {
    command: str("The command to execute"),
    timeout: num("Optional timeout in milliseconds (max 600000)"),
    description: str(
      "Clear, concise description of what this command does in 5-10 words, in active voice. Examples:\nInput: ls\nOutput: List files in current directory\n\nInput: git status\nOutput: Show working tree status\n\nInput: npm install\nOutput: Install package dependencies\n\nInput: mkdir foo\nOutput: Create directory 'foo'",
    ),
    run_in_background: bool("Set to true to run this command in the background."),
    dangerouslyDisableSandbox: bool(
      "Asks to run the command outside the sandbox. The permission settings decide; leave it unset.",
    ),
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
    pages: str('Page range of a PDF file, such as "1-5" or "3". Only for PDF files; text files ignore it.'),
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
      description: "Replace all occurences of old_string (default false)",
      default: false,
      type: "boolean",
    },
  },
  ["file_path", "old_string", "new_string"],
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
      description:
        'Output mode: "content" shows matching lines (supports -A/-B/-C context, -n line numbers, head_limit), "files_with_matches" shows file paths (supports head_limit), "count" shows match counts (supports head_limit). Defaults to "files_with_matches".',
      type: "string",
      enum: ["content", "files_with_matches", "count"],
    },
    "-B": num(`Number of lines to show before each match (rg -B). ${CONTENT_ONLY}`),
    "-A": num(`Number of lines to show after each match (rg -A). ${CONTENT_ONLY}`),
    "-C": num("Same as context."),
    context: num(`Lines of context before and after each match (rg -C). ${CONTENT_ONLY}`),
    "-n": bool(`Show line numbers in output (rg -n). ${CONTENT_ONLY}`),
    "-i": bool("Case insensitive search (rg -i)"),
    type: str(
      "File type to search (rg --type). Common types: js, py, rust, go, java, etc. More efficient than include for standard file types.",
    ),
    head_limit: num(
      'Limit output to first N lines/entries, equivalent to "| head -N". Works across all output modes: content (limits output lines), files_with_matches (limits file paths), count (limits count entries). When unspecified, shows all results from ripgrep.',
    ),
    offset: num(
      'Skips this many lines or entries before head_limit applies, like "| tail -n +N | head -N", in every output mode. Defaults to 0.',
    ),
    multiline: bool(
      "Enable multiline mode where . matches newlines and patterns can span lines (rg -U --multiline-dotall). Default: false.",
    ),
  },
  ["pattern"],
);

export const todoWriteSchema = object(
  {
    todos: {
      description: "The updated todo list",
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
    },
  },
  ["todos"],
);

export const skillSchema = object(
  {
    skill: str('The skill name. E.g., "pdf" or "release"'),
    args: str("Optional arguments for the skill"),
  },
  ["skill"],
);

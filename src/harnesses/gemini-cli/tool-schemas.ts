import replaceInstruction from "./descriptions/replace-instruction.md";
import type { ToolFamily } from "./tool-family.js";

/**
 * JSON schemas of Gemini CLI's tools in declaration order (google-gemini/gemini-cli
 * `packages/core/src/tools/definitions/model-family-sets/default-legacy.ts` and `gemini-3.ts`,
 * `dynamic-declaration-helpers.ts::getShellDeclaration`). Parameter names, types, bounds and the
 * short parameter descriptions are upstream's; the long `instruction` text is our own wording.
 *
 * `run_shell_command`'s `is_background`/`delay_ms` are declared with descriptions in our words;
 * left out on purpose: `additional_permissions` (the permission gate asks the editor instead).
 * `grep_search` is the ripgrep variant Gemini CLI registers whenever ripgrep is available.
 */

type Schema = Record<string, unknown>;

const str = (description: string): Schema => ({ description, type: "string" });
const bool = (description: string): Schema => ({ description, type: "boolean" });
const int = (description: string, minimum: number): Schema => ({ description, type: "integer", minimum });

export function readFileSchema(): Schema {
  return {
    type: "object",
    properties: {
      file_path: str("The path to the file to read."),
      start_line: int("Optional: The 1-based line number to start reading from.", 1),
      end_line: int("Optional: The 1-based line number to end reading at (inclusive).", 1),
    },
    required: ["file_path"],
  };
}

export function writeFileSchema(family: ToolFamily): Schema {
  const legacy = family === "default-legacy";
  return {
    type: "object",
    properties: {
      file_path: str(legacy ? "The path to the file to write to." : "Path to the file."),
      content: str(
        legacy
          ? "The content to write to the file. Do not use omission placeholders like '(rest of methods ...)', '...', or 'unchanged code'; provide complete literal content."
          : "The complete content to write. Provide the full file; do not use placeholders like '// ... rest of code'.",
      ),
    },
    required: ["file_path", "content"],
  };
}

export function replaceSchema(family: ToolFamily): Schema {
  const legacy = family === "default-legacy";
  const escaped = legacy ? "preferably unescaped" : "unescaped";
  return {
    type: "object",
    properties: {
      file_path: str("The path to the file to modify."),
      instruction: str(
        legacy
          ? replaceInstruction
          : "A clear, semantic instruction for the code change, acting as a high-quality prompt for an expert LLM assistant. It must be self-contained and explain the goal of the change.",
      ),
      old_string: str(
        legacy
          ? "The exact literal text to replace, preferably unescaped. For single replacements (default), include at least 3 lines of context BEFORE and AFTER the target text, matching whitespace and indentation precisely. If this string is not the exact literal text (i.e. you escaped it) or does not match exactly, the tool will fail."
          : "The exact literal text to replace, unescaped. If this string is not the exact literal text (i.e. you escaped it) or does not match exactly, the tool will fail.",
      ),
      new_string: str(
        `The exact literal text to replace \`old_string\` with, ${escaped}. Provide the EXACT text. Ensure the resulting code is correct and idiomatic. Do not use omission placeholders like '(rest of methods ...)', '...', or 'unchanged code'; provide exact literal code.`,
      ),
      allow_multiple: {
        type: "boolean",
        description:
          "If true, the tool will replace all occurrences of `old_string`. If false (default), it will only succeed if exactly one occurrence is found.",
      },
    },
    required: ["file_path", "instruction", "old_string", "new_string"],
  };
}

export function grepSearchSchema(): Schema {
  return {
    type: "object",
    properties: {
      pattern: str(
        "The pattern to search for. By default, treated as a Rust-flavored regular expression. Use '\\b' for precise symbol matching (e.g., '\\bMatchMe\\b').",
      ),
      dir_path: str(
        "Directory or file to search. Directories are searched recursively. Relative paths are resolved against current working directory. Defaults to current working directory ('.') if omitted.",
      ),
      include_pattern: str(
        "Glob pattern to filter files (e.g., '*.ts', 'src/**'). Recommended for large repositories to reduce noise. Defaults to all files if omitted.",
      ),
      exclude_pattern: str(
        "Optional: A regular expression pattern to exclude from the search results. If a line matches both the pattern and the exclude_pattern, it will be omitted.",
      ),
      names_only: bool(
        "Optional: If true, only the file paths of the matches will be returned, without the line content or line numbers. This is useful for gathering a list of files.",
      ),
      case_sensitive: bool("If true, search is case-sensitive. Defaults to false (ignore case) if omitted."),
      fixed_strings: bool(
        "If true, treats the `pattern` as a literal string instead of a regular expression. Defaults to false (basic regex) if omitted.",
      ),
      context: int(
        "Show this many lines of context around each match (equivalent to grep -C). Defaults to 0 if omitted.",
        0,
      ),
      after: int(
        "Show this many lines after each match (equivalent to grep -A). Defaults to 0 if omitted.",
        0,
      ),
      before: int(
        "Show this many lines before each match (equivalent to grep -B). Defaults to 0 if omitted.",
        0,
      ),
      no_ignore: bool(
        "If true, searches all files including those usually ignored (like in .gitignore, build/, dist/, etc). Defaults to false if omitted.",
      ),
      max_matches_per_file: int(
        "Optional: Maximum number of matches to return per file. Use this to prevent being overwhelmed by repetitive matches in large files.",
        1,
      ),
      total_max_matches: int(
        "Optional: Maximum number of total matches to return. Use this to limit the overall size of the response. Defaults to 100 if omitted.",
        1,
      ),
    },
    required: ["pattern"],
  };
}

export function globSchema(): Schema {
  return {
    type: "object",
    properties: {
      pattern: str("The glob pattern to match against (e.g., '**/*.py', 'docs/*.md')."),
      dir_path: str(
        "Optional: The absolute path to the directory to search within. If omitted, searches the root directory.",
      ),
      case_sensitive: bool("Optional: Whether the search should be case-sensitive. Defaults to false."),
      respect_git_ignore: bool(
        "Optional: Whether to respect .gitignore patterns when finding files. Only available in git repositories. Defaults to true.",
      ),
      respect_gemini_ignore: bool(
        "Optional: Whether to respect .geminiignore patterns when finding files. Defaults to true.",
      ),
    },
    required: ["pattern"],
  };
}

export function listDirectorySchema(): Schema {
  return {
    type: "object",
    properties: {
      dir_path: str("The path to the directory to list"),
      ignore: { description: "List of glob patterns to ignore", items: { type: "string" }, type: "array" },
      file_filtering_options: {
        description: "Optional: Whether to respect ignore patterns from .gitignore or .geminiignore",
        type: "object",
        properties: {
          respect_git_ignore: bool(
            "Optional: Whether to respect .gitignore patterns when listing files. Only available in git repositories. Defaults to true.",
          ),
          respect_gemini_ignore: bool(
            "Optional: Whether to respect .geminiignore patterns when listing files. Defaults to true.",
          ),
        },
      },
    },
    required: ["dir_path"],
  };
}

export function runShellCommandSchema(): Schema {
  return {
    type: "object",
    properties: {
      command: { type: "string", description: "Exact bash command to execute as `bash -c <command>`" },
      description: {
        type: "string",
        description:
          "Brief description of the command for the user. Be specific and concise. Ideally a single sentence. Can be up to 3 sentences for clarity. No line breaks.",
      },
      dir_path: {
        type: "string",
        description:
          "(OPTIONAL) The path of the directory to run the command in. If not provided, the project root directory is used. Must be a directory within the workspace and must already exist.",
      },
      is_background: {
        type: "boolean",
        description:
          "Optional: true starts the command as a background process and returns without waiting for it to finish, for servers, watchers and other long-running jobs. Leave it unset for commands whose result you need now; a trailing & is not needed and should not be used.",
      },
      delay_ms: {
        type: "integer",
        description:
          "Optional, with is_background only: milliseconds to wait after starting the process before returning, so its first output is included. Defaults to a short wait when omitted.",
      },
    },
    required: ["command"],
  };
}

export const TODO_STATUSES = ["pending", "in_progress", "completed", "cancelled", "blocked"] as const;

export function writeTodosSchema(): Schema {
  return {
    type: "object",
    properties: {
      todos: {
        type: "array",
        description: "The complete list of todo items. This will replace the existing list.",
        items: {
          type: "object",
          description: "A single todo item.",
          properties: {
            description: { type: "string", description: "The description of the task." },
            status: {
              type: "string",
              description: "The current status of the task.",
              enum: [...TODO_STATUSES],
            },
          },
          required: ["description", "status"],
          additionalProperties: false,
        },
      },
    },
    required: ["todos"],
    additionalProperties: false,
  };
}

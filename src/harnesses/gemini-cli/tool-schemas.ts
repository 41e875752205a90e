import replaceInstruction from "./descriptions/replace-instruction.md";
import type { ToolFamily } from "./tool-family.js";

/**
 * JSON schemas of Gemini CLI's tools in declaration order (google-gemini/gemini-cli
 * `packages/core/src/tools/definitions/model-family-sets/default-legacy.ts` and `gemini-3.ts`,
 * `dynamic-declaration-helpers.ts::getShellDeclaration`). Parameter names, types, bounds and
 * what each description says (its rules, defaults and examples) are upstream's; the words are ours.
 *
 * `run_shell_command`'s `is_background`/`delay_ms` are declared with descriptions in our words;
 * left out on purpose: `additional_permissions` (the permission gate asks the editor instead).
 * `wait_for_previous` (the background tools) is 0.61's scheduling hint; calls run in order here.
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
      file_path: str("Path of the file to read."),
      start_line: int("Optional: first line to return, counting from 1.", 1),
      end_line: int("Optional: last line to return, counting from 1 and included.", 1),
    },
    required: ["file_path"],
  };
}

export function writeFileSchema(family: ToolFamily): Schema {
  const legacy = family === "default-legacy";
  return {
    type: "object",
    properties: {
      file_path: str(legacy ? "Path of the file to write." : "Path of the file."),
      content: str(
        legacy
          ? "Everything the file should contain, written out in full. Never stand in for code with placeholders such as '(rest of methods ...)', '...' or 'unchanged code'."
          : "The whole file as it should be, with no placeholders such as '// ... rest of code'.",
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
      file_path: str("Path of the file to change."),
      instruction: str(
        legacy
          ? replaceInstruction
          : "What the change does and why, in plain words that stand on their own, as a brief for an expert assistant who sees nothing else.",
      ),
      old_string: str(
        legacy
          ? "The text to replace, character for character, ideally without escaping. For a single replacement (the default) take at least 3 lines of surrounding text BEFORE and AFTER the target, with its whitespace and indentation exactly as in the file. Escaped or inexact text does not match, and the call fails."
          : "The text to replace, character for character and without escaping. Escaped or inexact text does not match, and the call fails.",
      ),
      new_string: str(
        `The text that takes the place of \`old_string\`, character for character, ${escaped}. The code it leaves must be correct and idiomatic; write all of it, never a placeholder such as '(rest of methods ...)', '...' or 'unchanged code'.`,
      ),
      allow_multiple: {
        type: "boolean",
        description:
          "true replaces every occurrence of `old_string`; false (the default) succeeds only when it occurs exactly once.",
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
        "What to look for: a regular expression in Rust's syntax unless fixed_strings is set. Word boundaries ('\\b') pin a symbol exactly, e.g. '\\bMatchMe\\b'.",
      ),
      dir_path: str(
        "A file, or a directory searched with everything below it. Relative paths start at the current working directory, which is also the default ('.').",
      ),
      include_pattern: str(
        "Only files matching this glob, e.g. '*.ts' or 'src/**'; worth setting in large repositories to cut noise. Every file when left out.",
      ),
      exclude_pattern: str(
        "Optional: a regular expression for lines to leave out; a line matching both pattern and exclude_pattern is not reported.",
      ),
      names_only: bool(
        "Optional: true returns just the paths of files with matches, no lines or line numbers: handy for collecting a list of files.",
      ),
      case_sensitive: bool("true makes the search case-sensitive; by default (false) case is ignored."),
      fixed_strings: bool(
        "true reads `pattern` as plain text rather than a regular expression; false (a regular expression) by default.",
      ),
      context: int("Lines of context to show on both sides of each match, like grep -C; 0 by default.", 0),
      after: int("Lines to show after each match, like grep -A; 0 by default.", 0),
      before: int("Lines to show before each match, like grep -B; 0 by default.", 0),
      no_ignore: bool(
        "true searches every file, also those normally skipped (.gitignore entries, build/, dist/ and the like); false by default.",
      ),
      max_matches_per_file: int(
        "Optional: at most this many matches from any one file, so a large file full of repeats cannot flood the answer.",
        1,
      ),
      total_max_matches: int(
        "Optional: at most this many matches in all, to keep the answer small; 100 by default.",
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
      pattern: str("The glob that paths must match, e.g. '**/*.py' or 'docs/*.md'."),
      dir_path: str("Optional: absolute path of the directory to look in; the workspace root when left out."),
      case_sensitive: bool("Optional: true matches case exactly; false by default."),
      respect_git_ignore: bool(
        "Optional: whether files ignored by .gitignore stay out of the results (only in git repositories); true by default.",
      ),
      respect_gemini_ignore: bool(
        "Optional: whether files ignored by .geminiignore stay out of the results; true by default.",
      ),
    },
    required: ["pattern"],
  };
}

export function listDirectorySchema(): Schema {
  return {
    type: "object",
    properties: {
      dir_path: str("Path of the directory to list"),
      ignore: { description: "Globs of entries to leave out", items: { type: "string" }, type: "array" },
      file_filtering_options: {
        description: "Optional: how ignore files (.gitignore, .geminiignore) apply to the listing",
        type: "object",
        properties: {
          respect_git_ignore: bool(
            "Optional: whether entries ignored by .gitignore are left out (only in git repositories); true by default.",
          ),
          respect_gemini_ignore: bool(
            "Optional: whether entries ignored by .geminiignore are left out; true by default.",
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
      command: {
        type: "string",
        description: "The command line, run exactly as given with `bash -c <command>`",
      },
      description: {
        type: "string",
        description:
          "What the command does, for the user: short and specific, one sentence if possible and never more than 3, on one line.",
      },
      dir_path: {
        type: "string",
        description:
          "(OPTIONAL) Directory to run the command in: an existing directory inside the workspace. The project root when left out.",
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

const WAIT_FOR_PREVIOUS = {
  type: "boolean",
  description:
    "Optional: true holds this call until the calls before it in the same response have finished; otherwise it may run beside them.",
};

export function invokeAgentSchema(): Schema {
  return {
    type: "object",
    properties: {
      agent_name: { type: "string", description: "Which subagent to start" },
      prompt: {
        type: "string",
        description:
          "Everything the subagent needs, in full: the context, the background, the questions and the form its answer should take. A short or partial instruction leaves it guessing.",
      },
      wait_for_previous: WAIT_FOR_PREVIOUS,
    },
    required: ["agent_name", "prompt"],
  };
}

export function listBackgroundProcessesSchema(): Schema {
  return { type: "object", properties: { wait_for_previous: WAIT_FOR_PREVIOUS } };
}

export function readBackgroundOutputSchema(): Schema {
  return {
    type: "object",
    properties: {
      pid: {
        type: "integer",
        description: "Process id of the background process, as run_shell_command gave it.",
      },
      lines: {
        type: "integer",
        minimum: 1,
        description: "Optional: how many lines to show from the end of its output; 100 when left out.",
      },
      delay_ms: {
        type: "integer",
        description:
          "Optional: milliseconds to wait before reading, to give a process that just started time to print.",
      },
      wait_for_previous: WAIT_FOR_PREVIOUS,
    },
    required: ["pid"],
  };
}

export const TODO_STATUSES = ["pending", "in_progress", "completed", "cancelled", "blocked"] as const;

export function writeTodosSchema(): Schema {
  return {
    type: "object",
    properties: {
      todos: {
        type: "array",
        description: "Every todo item, in order; it takes the place of the current list.",
        items: {
          type: "object",
          description: "One todo item.",
          properties: {
            description: { type: "string", description: "What the task is." },
            status: {
              type: "string",
              description: "Where the task stands now.",
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

export function webFetchSchema(family: ToolFamily): Schema {
  return {
    type: "object",
    properties: {
      prompt: str(
        family === "default-legacy"
          ? 'Your request, with up to 20 full URLs (starting with http:// or https://) written into it and what to do with their pages, e.g. "Sum up https://example.com/article and list the key dates in https://example.com/timeline". At least one URL is required; the pages are fetched and your instructions applied to their content.'
          : "A request that names one or more full http(s) URLs and says what to do with their pages.",
      ),
    },
    required: ["prompt"],
  };
}

export function googleWebSearchSchema(family: ToolFamily): Schema {
  return {
    type: "object",
    properties: {
      query: {
        type: "string",
        description:
          family === "default-legacy"
            ? "What to search the web for."
            : "What to search the web for: a focused query, in the words the pages you want would use.",
      },
    },
    required: ["query"],
  };
}

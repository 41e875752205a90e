/**
 * JSON schemas of Qwen Code's tools as its tool classes declare them (QwenLM/qwen-code
 * `packages/core/src/tools/{ls,read-file,ripGrep,glob,edit,write-file,shell,todoWrite}.ts`):
 * `properties` first, then `required`, then `type`, with upstream's short parameter descriptions.
 *
 * Left out: `read_file`'s `pages` (no PDF extraction here), `run_shell_command`'s `is_background`
 * (no background processes here). `todo_write` is the list tool OI's Qwen prompt teaches; current
 * Qwen Code replaced it with `task_*` tools.
 */

type Schema = Record<string, unknown>;

export function listDirectorySchema(): Schema {
  return {
    properties: {
      path: {
        description: "The absolute path to the directory to list (must be absolute, not relative)",
        type: "string",
      },
      ignore: { description: "List of glob patterns to ignore", items: { type: "string" }, type: "array" },
      file_filtering_options: {
        description:
          "Optional: Whether to respect ignore patterns from .gitignore, .qwenignore, and configured custom Qwen ignore files",
        type: "object",
        properties: {
          respect_git_ignore: {
            description:
              "Optional: Whether to respect .gitignore patterns when listing files. Only available in git repositories. Defaults to true.",
            type: "boolean",
          },
          respect_qwen_ignore: {
            description:
              "Optional: Whether to respect .qwenignore and configured custom Qwen ignore file patterns when listing files. Defaults to true.",
            type: "boolean",
          },
        },
      },
    },
    required: ["path"],
    type: "object",
  };
}

export function readFileSchema(): Schema {
  return {
    properties: {
      file_path: {
        description:
          "The absolute path to the file to read (e.g., '/home/user/project/file.txt'). Relative paths are not supported. You must provide an absolute path.",
        type: "string",
      },
      offset: {
        description:
          "Optional: For text files, the 0-based line number to start reading from. Requires 'limit' to be set. Use for paginating through large files.",
        type: "integer",
      },
      limit: {
        description:
          "Optional: For text files, maximum number of lines to read. Use with 'offset' to paginate through large files. If omitted, reads the entire file (if feasible, up to a default limit).",
        type: "integer",
      },
    },
    required: ["file_path"],
    type: "object",
  };
}

export function grepSearchSchema(): Schema {
  return {
    properties: {
      pattern: {
        type: "string",
        description: "The regular expression pattern to search for in file contents",
      },
      glob: {
        type: "string",
        description: 'Glob pattern to filter files (e.g. "*.js", "*.{ts,tsx}") - maps to rg --glob',
      },
      path: {
        type: "string",
        description: "File or directory to search in (rg PATH). Defaults to current working directory.",
      },
      limit: {
        type: "integer",
        minimum: 1,
        description:
          "Limit output to first N lines/entries. Must be a positive integer. Optional - shows all matches if not specified.",
      },
    },
    required: ["pattern"],
    type: "object",
  };
}

export function globSchema(): Schema {
  return {
    properties: {
      pattern: { description: "The glob pattern to match files against", type: "string" },
      path: {
        description:
          'The directory to search in. If not specified, the current working directory will be used. IMPORTANT: Omit this field to use the default directory. DO NOT enter "undefined" or "null" - simply omit it for the default behavior. Must be a valid directory path if provided.',
        type: "string",
      },
    },
    required: ["pattern"],
    type: "object",
  };
}

export function editSchema(): Schema {
  return {
    properties: {
      file_path: {
        description: "The absolute path to the file to modify. Must start with '/'.",
        type: "string",
      },
      old_string: {
        description:
          "The exact literal text to replace, preferably unescaped. For single replacements (default), include at least 3 lines of context BEFORE and AFTER the target text, matching whitespace and indentation precisely. If this string is not the exact literal text (i.e. you escaped it) or does not match exactly, the tool will fail.",
        type: "string",
      },
      new_string: {
        description:
          "The exact literal text to replace `old_string` with, preferably unescaped. Provide the EXACT text. Ensure the resulting code is correct and idiomatic.",
        type: "string",
      },
      replace_all: { type: "boolean", description: "Replace all occurrences of old_string (default false)." },
    },
    required: ["file_path", "old_string", "new_string"],
    type: "object",
  };
}

export function writeFileSchema(): Schema {
  return {
    properties: {
      file_path: {
        description:
          "The absolute path to the file to write to (e.g., '/home/user/project/file.txt'). Relative paths are not supported.",
        type: "string",
      },
      content: { description: "The content to write to the file.", type: "string" },
    },
    required: ["file_path", "content"],
    type: "object",
  };
}

export function runShellCommandSchema(): Schema {
  return {
    type: "object",
    properties: {
      command: { type: "string", description: "Exact bash command to execute as `bash -c <command>`" },
      timeout: { type: "number", description: "Optional timeout in milliseconds (max 600000)" },
      description: {
        type: "string",
        description:
          "Brief description of the command for the user. Be specific and concise. Ideally a single sentence. Can be up to 3 sentences for clarity. No line breaks.",
      },
      directory: {
        type: "string",
        description:
          "(OPTIONAL) The absolute path of the directory to run the command in. If not provided, the project root directory is used. Must be a directory within the workspace and must already exist.",
      },
    },
    required: ["command"],
  };
}

export function todoWriteSchema(): Schema {
  return {
    type: "object",
    properties: {
      todos: {
        type: "array",
        items: {
          type: "object",
          properties: {
            content: { type: "string", minLength: 1 },
            status: { type: "string", enum: ["pending", "in_progress", "completed"] },
            id: { type: "string" },
          },
          required: ["content", "status", "id"],
          additionalProperties: false,
        },
        description: "The updated todo list",
      },
    },
    required: ["todos"],
    $schema: "http://json-schema.org/draft-07/schema#",
  };
}

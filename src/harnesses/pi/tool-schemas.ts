import { PI_MAX_LINES } from "./truncate.js";

/**
 * pi's four tools as its coding agent declares them (badlogic/pi-mono, now earendil-works/pi,
 * `packages/coding-agent/src/core/tools/{read,bash,edit,write}.ts`; the wire form as
 * openinterpreter `codex-rs/core/src/harness/pi.rs` sends it, `strict: false`). Names,
 * parameter names, types, `required` and the presence of every description are pi's; the
 * description texts are our own wording of pi's.
 */

export const readDescription = `Read a file's contents. Text output is cut at ${PI_MAX_LINES} lines or 50KB, whichever comes first. For large files use offset/limit; when you need the whole file, keep reading with offset until you reach the end.`;

export const bashDescription = `Run a bash command in the current working directory and get back its stdout and stderr. Output keeps the last ${PI_MAX_LINES} lines or 50KB, whichever comes first; when it is cut, the full output is saved to a temp file. A timeout in seconds is optional.`;

export const editDescription =
  "Edit one file by exact text replacement. Each edits[].oldText must match a unique region of the original file, and no two regions may overlap. When two changes touch the same block or neighbouring lines, merge them into one edit instead of overlapping edits. Do not pad edits with large unchanged regions to bridge distant changes.";

export const writeDescription =
  "Write content to a file: the file is created when missing and overwritten when present. Missing parent directories are created.";

export const readSchema = {
  type: "object",
  required: ["path"],
  properties: {
    path: { type: "string", description: "Path of the file to read (relative or absolute)" },
    offset: { type: "number", description: "Line to start reading from (1-indexed)" },
    limit: { type: "number", description: "Maximum number of lines to return" },
  },
};

export const bashSchema = {
  type: "object",
  required: ["command"],
  properties: {
    command: { type: "string", description: "The bash command to run" },
    timeout: { type: "number", description: "Timeout in seconds (optional; by default there is none)" },
  },
};

export const editSchema = {
  type: "object",
  required: ["path", "edits"],
  properties: {
    path: { type: "string", description: "Path of the file to edit (relative or absolute)" },
    edits: {
      type: "array",
      description:
        "One or more targeted replacements, each matched against the original file rather than one after another. No overlapping or nested edits: changes to the same block or nearby lines belong in one edit.",
      items: {
        type: "object",
        required: ["oldText", "newText"],
        properties: {
          oldText: {
            type: "string",
            description:
              "Exact text this replacement targets. It must be unique in the original file and must not overlap any other edits[].oldText of the same call.",
          },
          newText: { type: "string", description: "Text that replaces oldText in this edit." },
        },
        additionalProperties: false,
      },
    },
  },
  additionalProperties: false,
};

export const writeSchema = {
  type: "object",
  required: ["path", "content"],
  properties: {
    path: { type: "string", description: "Path of the file to write (relative or absolute)" },
    content: { type: "string", description: "The content to write" },
  },
};

import type { FsPort } from "../types.js";
import type { WalkEntry } from "./walk-tree.js";

/**
 * Contract of the shared file executors every harness formats in its own way.
 * Implementations: read-text-file.ts, replace-in-text.ts, glob-files.ts, grep-files.ts,
 * list-directory.ts, read-tracker.ts (one function or class per file, same names as below).
 */

/** A failure the model can act on; `message` is plain and names the path. */
export type FsToolErrorCode =
  | "not_found"
  | "is_directory"
  | "not_a_directory"
  | "binary"
  | "too_large"
  | "no_match"
  | "multiple_matches"
  | "no_change"
  | "invalid_pattern";

export class FsToolError extends Error {
  constructor(
    readonly code: FsToolErrorCode,
    message: string,
    /** For `multiple_matches`: how many times `old_string` occurs. */
    readonly count?: number,
  ) {
    super(message);
    this.name = "FsToolError";
  }
}

export interface TextFile {
  path: string;
  /** Decoded text (UTF-8), line endings as on disk. */
  content: string;
  /** Lines without their line endings; a final newline does not start an extra line. */
  lines: string[];
  mtimeMs: number;
  size: number;
}

/** readTextFile({ fs, path, maxBytes? }): Promise<TextFile> — throws FsToolError not_found | is_directory | binary | too_large. */
export interface ReadTextFileOptions {
  /** The session's file-system port (`ToolContext.fs`). */
  fs: FsPort;
  path: string;
  /** Refuse files above this size (default 10 MiB). */
  maxBytes?: number;
}

/** replaceInText(options): ReplaceResult — pure; throws FsToolError no_match | multiple_matches | no_change. */
export interface ReplaceOptions {
  text: string;
  oldString: string;
  newString: string;
  /** Replace every occurrence instead of requiring exactly one. */
  replaceAll?: boolean;
  /**
   * Gemini-style tolerance when the exact string is absent: ignore differences in line
   * endings, trailing whitespace and the indentation of each line (re-indenting `newString`
   * by the indentation found). Exact matching is always tried first.
   */
  tolerant?: boolean;
  /** When `replaceAll` is false and several matches exist, accept exactly this many (Gemini `expected_replacements`). */
  expectedReplacements?: number;
}

export interface ReplaceResult {
  text: string;
  replacements: number;
  /** Which strategy matched: exact, or the tolerant fallback. */
  strategy: "exact" | "tolerant";
}

/** globFiles(options): Promise<GlobResult> — pattern like `src/**\/*.ts`; respects .gitignore; newest first. */
export interface GlobOptions {
  pattern: string;
  /** Absolute directory to search in. */
  cwd: string;
  signal: AbortSignal;
  /** Default 1000. */
  limit?: number;
  /** Default true: skip what .gitignore ignores. */
  respectGitignore?: boolean;
  caseSensitive?: boolean;
  /** Names never matched nor entered, at any depth, ignore files or not. Default: `.git` and `node_modules`. */
  skipNames?: ReadonlySet<string>;
  /**
   * ripgrep's `--glob` rules instead of plain matching, for a tool built on `rg --files --glob`:
   * the walk starts at `cwd` (no literal prefix is jumped to) and `select` decides every entry
   * from whether the pattern matches its path and whether an ignore file excludes it. A
   * directory it keeps is entered; a file it keeps is found. `skipNames` applies first.
   */
  select?: (entry: WalkEntry, state: { matches: boolean; ignored: boolean }) => boolean;
}

export interface GlobResult {
  /** Absolute paths, most recently modified first. */
  files: string[];
  truncated: boolean;
}

/** grepFiles(options): Promise<GrepResult> — ripgrep (`rg`) when installed, a JS fallback otherwise. */
export interface GrepOptions {
  /** A regular expression (Rust/ripgrep syntax; the JS fallback uses the JS equivalent). */
  pattern: string;
  /** Absolute file or directory (default: cwd). */
  path: string;
  signal: AbortSignal;
  /** Glob filter on file paths, e.g. `*.ts` or `**\/*.{ts,tsx}`. */
  glob?: string;
  /** ripgrep file type, e.g. `ts`, `py`. */
  type?: string;
  ignoreCase?: boolean;
  multiline?: boolean;
  outputMode: "content" | "files_with_matches" | "count";
  before?: number;
  after?: number;
  /** Prefix content lines with line numbers (content mode). */
  lineNumbers?: boolean;
  /** Stop after this many output lines / files. */
  headLimit?: number;
  /** Skip this many output lines / files first. */
  offset?: number;
}

export interface GrepResult {
  /**
   * ripgrep-shaped text: `path:line:text` (content), `path` (files), `path:count` (count).
   * Paths are relative to `path` when it is a directory.
   */
  lines: string[];
  /** Files that matched (absolute). */
  files: string[];
  truncated: boolean;
}

/** listDirectory(options): Promise<DirectoryListing> */
export interface ListDirectoryOptions {
  path: string;
  /** Glob patterns of names to skip. */
  ignore?: string[];
  /** 1 = only direct children (default 1). */
  depth?: number;
  /** Default 1000 entries. */
  limit?: number;
  respectGitignore?: boolean;
}

export interface DirectoryEntry {
  /** Relative to the listed directory, `/` separators. */
  path: string;
  type: "file" | "directory" | "symlink";
  size: number;
}

export interface DirectoryListing {
  entries: DirectoryEntry[];
  truncated: boolean;
}

/**
 * ReadTracker (class): remembers which files the model has read in this session and their
 * mtime at that time, for Read-before-Edit and "file changed since read" checks.
 *   recordRead(path: string, mtimeMs: number): void
 *   recordWrite(path: string, mtimeMs: number): void   // our own edits keep the file "read"
 *   check(path: string, currentMtimeMs: number): "ok" | "not_read" | "changed"
 *   lastRead(path: string): number | undefined          // mtime at the last read
 */

import type { z } from "zod";
import { ConfigLayer } from "./config-schema.js";
import { formatKeyPath, isTable, valueAt } from "./tables.js";
import { ConfigError } from "./types.js";

export interface LayerSource {
  /** The config file; every `ConfigError` carries it. */
  file: string;
  /** Where the values came from, as the message should say it: the file path or "-c". */
  label: string;
  /** Where this layer sits inside the file (e.g. `["profiles", "work"]`), for key names. */
  prefix?: string[];
  /** Strings that must never appear in a message (API keys from the environment). */
  secrets: readonly string[];
}

/**
 * Validates one raw layer against the schema. Throws a `ConfigError` whose message names the
 * source, each offending key and what was expected, e.g.
 * `config.toml: model_providers.mock.request_max_retries: expected an integer between 0 and 100, got "five"`.
 */
export function validateLayer(raw: unknown, source: LayerSource): ConfigLayer {
  const result = ConfigLayer.safeParse(raw);
  if (result.success) return result.data;
  const prefix = source.prefix ?? [];
  const issues = result.error.issues.flatMap(unwrapUnion);
  const lines = issues.map((issue) => describeIssue(issue, raw, prefix, source.secrets));
  const key = formatKeyPath([...prefix, ...(issues[0]?.path ?? [])]);
  const message = lines.map((line) => `${source.label}: ${line}`).join("\n");
  throw new ConfigError(scrubSecrets(message, source.secrets), source.file, key);
}

/**
 * A key that takes a string or a table (`web_search`) fails as a union; the branch whose type
 * the value has says what is wrong inside it, which beats "matches neither".
 */
function unwrapUnion(issue: z.core.$ZodIssue): z.core.$ZodIssue[] {
  if (issue.code !== "invalid_union") return [issue];
  const inside = (errors: z.core.$ZodIssue[]) => errors.every((inner) => inner.path.length > 0);
  const sameType = (errors: z.core.$ZodIssue[]) =>
    errors.every((inner) => inner.path.length > 0 || inner.code !== "invalid_type");
  const branch = issue.errors.find(inside) ?? issue.errors.find(sameType);
  if (!branch) return [issue];
  return branch.map((inner) => ({ ...inner, path: [...issue.path, ...inner.path] })).flatMap(unwrapUnion);
}

function describeIssue(
  issue: z.core.$ZodIssue,
  raw: unknown,
  prefix: string[],
  secrets: readonly string[],
): string {
  const path = [...prefix, ...issue.path];
  const value = valueAt(raw, issue.path);
  // Checked before `describeValue` shortens the value, which would defeat the final scrub.
  const secret = typeof value === "string" && secrets.some((s) => value.includes(s));
  const got = secret || isSensitive(path) ? withArticle(typeName(value)) : describeValue(value);
  return `${formatKeyPath(path)}: ${issue.message}, got ${got}`;
}

// Header values and anything named like a credential may hold a secret: show only its type.
const SENSITIVE = /(^|_)(key|token|secret|password|authorization|auth)$/i;

function isSensitive(path: readonly PropertyKey[]): boolean {
  return path.some(
    (part, index) =>
      typeof part === "string" &&
      part !== "env_key" &&
      (SENSITIVE.test(part) || (part === "http_headers" && index < path.length - 1)),
  );
}

function typeName(value: unknown): string {
  if (Array.isArray(value)) return "array";
  if (value instanceof Date) return "date";
  if (isTable(value)) return "table";
  return typeof value;
}

export function describeValue(value: unknown): string {
  if (typeof value === "string") {
    const shown = value.length > 60 ? `${value.slice(0, 57)}...` : value;
    return JSON.stringify(shown);
  }
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint")
    return String(value);
  if (value === undefined) return "nothing";
  return withArticle(typeName(value));
}

function withArticle(name: string): string {
  return `${/^[aeiou]/.test(name) ? "an" : "a"} ${name}`;
}

/** Replaces every secret that occurs in `text`. */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) out = out.split(secret).join("[redacted]");
  return out;
}

/** Environment values that look like credentials (by the variable's name). */
export function secretsFromEnv(env: Record<string, string | undefined>): string[] {
  return Object.entries(env)
    .filter(
      ([name, value]) => /KEY|TOKEN|SECRET|PASSWORD/i.test(name) && value !== undefined && value.length >= 8,
    )
    .map(([, value]) => value as string);
}

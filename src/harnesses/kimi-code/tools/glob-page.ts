/**
 * One page of Kimi Code 2.1.0's Glob result (kimi-code `agent/tools/os/glob/globTool.ts`):
 * notices first (where the page sits in the result set, how to continue), then the paths, then
 * the footer (filtered secrets, `Found N matches` for a first page that is exactly full). A page
 * also stops before the path that would break the character budget and says so.
 */

/** ripgrep's captured output in Kimi Code: paths past it are not collected. */
export const MAX_OUTPUT_BYTES = 10 * 1024 * 1024;
/** Kimi Code's retention limit for one tool result; larger results are spilled before that. */
export const MAX_RETAINED_CHARS = 10_000_000;

export interface GlobPageInput {
  /** Every matching path that may be shown, newest first, as it will be shown. */
  kept: string[];
  filteredSensitive: number;
  offset: number;
  /** 0 lifts the count limit. */
  headLimit: number;
  /** Not every match was collected (ripgrep's output capture ran full). */
  outputTruncated: boolean;
  /** For tests; Kimi Code's retention limit otherwise. */
  maxChars?: number;
}

export function globPage(input: GlobPageInput): { output: string; isError?: boolean } {
  const { kept, offset, headLimit } = input;
  const candidates = headLimit === 0 ? kept.slice(offset) : kept.slice(offset, offset + headLimit);
  // The room for paths is what is left after the longer of the two possible sets of notices.
  let remaining =
    (input.maxChars ?? MAX_RETAINED_CHARS) -
    Math.max(
      ...[false, true].map((limited) => {
        const { lines, footer } = notices(input, candidates.length, limited);
        return [...lines, ...footer].join("\n").length + 2;
      }),
    );
  const shown: string[] = [];
  for (const candidate of candidates) {
    if (candidate.length + 1 > remaining) break;
    shown.push(candidate);
    remaining -= candidate.length + 1;
  }
  if (candidates.length > 0 && shown.length === 0) {
    return {
      output:
        "Glob cannot fit a complete path and its diagnostics within the output limit. Narrow the search path or pattern.",
      isError: true,
    };
  }
  const { lines, footer } = notices(input, shown.length, shown.length < candidates.length);
  return { output: [...lines, ...shown, ...footer].join("\n") };
}

function notices(
  input: GlobPageInput,
  count: number,
  characterLimited: boolean,
): { lines: string[]; footer: string[] } {
  const { kept, offset, headLimit, filteredSensitive } = input;
  const partial = input.outputTruncated;
  const lines: string[] = [];
  const footer: string[] = [];
  if (partial) {
    lines.push(
      `[stdout truncated at ${MAX_OUTPUT_BYTES} bytes; results may be incomplete — use a more specific pattern]`,
    );
  }
  const more = characterLimited || offset + count < kept.length;
  if (count === 0) {
    if (kept.length > 0) {
      const set = partial ? "collected partial result set" : "current result set";
      lines.push(`No more matches at offset=${offset} in the ${set} (${kept.length} matches).`);
    } else if (partial) lines.push("No matches collected; search incomplete.");
    else if (filteredSensitive > 0) {
      lines.push(`No non-sensitive matches found (${filteredSensitive} sensitive file(s) filtered).`);
    } else lines.push("No matches found");
  } else if (more || offset > 0 || partial) {
    const total = partial ? `${kept.length} collected matches (partial result set)` : String(kept.length);
    lines.push(`Showing matches ${offset + 1}–${offset + count} of ${total}.`);
  }
  if (characterLimited) lines.push("Character limit reached; only complete paths are returned.");
  if (more) {
    lines.push(`Continue with the same search arguments and offset=${offset + count}.`);
    if (!characterLimited) lines.push("To remove the match-count limit, omit offset and use head_limit=0.");
  }
  if (filteredSensitive > 0 && (kept.length > 0 || partial)) {
    footer.push(`Filtered ${filteredSensitive} sensitive file(s).`);
  }
  if (!more && !partial && offset === 0 && headLimit > 0 && count === headLimit) {
    footer.push(`Found ${count} matches`);
  }
  return { lines, footer };
}

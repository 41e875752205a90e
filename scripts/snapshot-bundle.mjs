// What every bundle meant for `node --build-snapshot` shares: ours (scripts/build.mjs) and the
// bench's bare agent (bench/bare-snapshot.mjs), so the bench's floor is built like the daemon.

/**
 * esbuild options: one CommonJS file (a snapshot entry cannot be an ES module), minified and
 * ASCII-escaped (V8 keeps the source in the heap, one byte per character only when it is all
 * Latin-1). `import.meta.url` has no value in a snapshot; code that needs its own location finds
 * it from `--snapshot-blob` (src/tools/exec/spawner/spawner-path.ts).
 */
export const SNAPSHOT_BUNDLE = {
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  minify: true,
  charset: "ascii",
  define: { "import.meta.url": "undefined" },
};

/**
 * The bundle with every character above U+007F written as `\uXXXX` (the same character in a
 * regex, string or identifier). V8 keeps a script's source in the heap, one byte per character
 * only when every character is Latin-1; esbuild escapes non-ASCII in strings but not in regular
 * expression literals, and one `…` in a regex doubled our 1.5 MB source to 3 MB of heap.
 */
export function escapeNonAscii(source) {
  return source.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** V8 flags of the launcher (bin/interpreter): a snapshot loads only with the flags it was built with. */
export const SNAPSHOT_V8_FLAGS = ["--max-semi-space-size=1"];

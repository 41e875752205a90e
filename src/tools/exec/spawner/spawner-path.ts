import path from "node:path";
import { fileURLToPath } from "node:url";

export interface SpawnerPathContext {
  /** `process.execArgv`: holds `--snapshot-blob <dist>/snapshot.blob` when started from the snapshot. */
  execArgv: readonly string[];
  /** `import.meta.url` of the running code: a file in dist/ (the ESM bundle) or this source file. */
  moduleUrl: string | undefined;
}

/**
 * Where `dist/spawner.js` (the spawn helper, built by scripts/build.mjs) is, found from the code
 * that is running: the snapshot bundle knows dist/ from its blob's path (its `import.meta` is
 * empty), the ESM bundle's chunks live in dist/ themselves, and sources run by vitest use the
 * dist/ built by the test setup.
 */
export function spawnerPath(
  context: SpawnerPathContext = { execArgv: process.execArgv, moduleUrl: import.meta.url },
): string {
  const { execArgv, moduleUrl } = context;
  const flag = execArgv.indexOf("--snapshot-blob");
  const inline = execArgv.find((arg) => arg.startsWith("--snapshot-blob="));
  const blob = flag >= 0 ? execArgv[flag + 1] : inline?.slice("--snapshot-blob=".length);
  if (blob) return path.join(path.dirname(path.resolve(blob)), "spawner.js");
  if (moduleUrl === undefined)
    throw new Error("cannot locate dist/spawner.js: no module URL and no snapshot");
  const file = fileURLToPath(moduleUrl);
  // This file, under src/tools/exec/spawner/, run from source.
  if (file.endsWith(".ts")) return path.resolve(path.dirname(file), "../../../../dist/spawner.js");
  return path.join(path.dirname(file), "spawner.js");
}

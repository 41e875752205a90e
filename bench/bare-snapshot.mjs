// The bare agent (bench/bare-agent.mjs) started from a V8 start-up snapshot built the way
// scripts/build.mjs builds ours (one CommonJS bundle, the web streams loaded at build time,
// node's code cache stripped) and started with the malloc settings bin/interpreter gives ours.
// Nothing of ours is in it, so its start is the floor for any agent on the official ACP SDK on
// this machine.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { escapeNonAscii, SNAPSHOT_BUNDLE, SNAPSHOT_V8_FLAGS } from "../scripts/snapshot-bundle.mjs";
import { stripCodeCache } from "../scripts/strip-code-cache.mjs";
import { ROOT } from "./support.mjs";

const ENTRY = `
import { Readable, Writable } from "node:stream";
import { startupSnapshot } from "node:v8";
import { bareApp, serve } from "./bare-agent.mjs";
const app = bareApp();
Readable.toWeb(new Readable({ read() {} }));
Writable.toWeb(new Writable({ write: (_chunk, _encoding, done) => done() }));
startupSnapshot.setDeserializeMainFunction(() => serve(app));
`;

/** What bin/interpreter sets for node (see its comments); the bench starts both agents alike. */
const LAUNCHER_ENV = {
  MALLOC_MMAP_THRESHOLD_: "262144",
  MALLOC_TRIM_THRESHOLD_: "2097152",
  GLIBC_TUNABLES: "glibc.malloc.hugetlb=1",
};

/** Builds the snapshot in `scratch`; returns how to start the agent from it. */
export async function bareSnapshotAgent(scratch) {
  const dir = mkdtempSync(path.join(scratch, "bare-snapshot-"));
  const bundle = path.join(dir, "bare.cjs");
  const { outputFiles } = await build({
    ...SNAPSHOT_BUNDLE,
    stdin: { contents: ENTRY, resolveDir: path.join(ROOT, "bench"), loader: "js" },
    outfile: bundle,
    write: false,
    logLevel: "warning",
  });
  writeFileSync(bundle, escapeNonAscii(outputFiles[0].text));
  const blob = path.join(dir, "bare.blob");
  const flags = [...SNAPSHOT_V8_FLAGS, "--snapshot-blob", blob];
  execFileSync(process.execPath, ["--no-warnings", ...flags, "--build-snapshot", bundle]);
  const stripped = stripCodeCache(readFileSync(blob));
  if (!stripped) throw new Error("bench: could not strip node's code cache from the bare agent's snapshot");
  writeFileSync(blob, stripped);
  return { command: process.execPath, args: flags, env: LAUNCHER_ENV };
}

import { existsSync } from "node:fs";
import { cp, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { applyPatch } from "../src/tools/apply-patch/apply-patch.js";
import { createLocalFs } from "../src/tools/local-fs.js";

// Codex's apply-patch scenarios, kept outside the repo (see its ABOUT.md); read in place, never copied in.
const casesDir = fileURLToPath(new URL("../../shared/conformance/apply-patch/", import.meta.url));
const cases = existsSync(casesDir)
  ? (await readdir(casesDir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name)
  : [];

/** Cases whose patch must be refused: their names say so (009: an update requires an existing file). */
const EXPECTS_ERROR = /rejects|fails|failure|requires_existing/;

const temps: string[] = [];
afterEach(async () => {
  await Promise.all(temps.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** Every file under `dir` (relative path → bytes); empty for a missing directory. */
async function snapshot(dir: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  if (!existsSync(dir)) return files;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    files.set(path.relative(dir, full), await readFile(full));
  }
  return files;
}

describe.skipIf(cases.length === 0)("apply_patch conformance (Codex scenarios)", () => {
  it.each(cases)("%s", async (name) => {
    const caseDir = path.join(casesDir, name);
    const work = await mkdtemp(path.join(tmpdir(), "apply-patch-"));
    temps.push(work);
    if (existsSync(path.join(caseDir, "input")))
      await cp(path.join(caseDir, "input"), work, { recursive: true });
    const patch = await readFile(path.join(caseDir, "patch.txt"), "utf8");

    const run = applyPatch({ patch, cwd: work, fs: createLocalFs() });
    if (EXPECTS_ERROR.test(name)) await expect(run).rejects.toThrow();
    else await expect(run).resolves.toMatchObject({ output: expect.stringMatching(/^Success\./) });

    const actual = await snapshot(work);
    const expected = await snapshot(path.join(caseDir, "expected"));
    expect([...actual.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [file, bytes] of expected) {
      expect(actual.get(file)?.toString("latin1"), file).toBe(bytes.toString("latin1"));
    }
  });
});

import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createGitScanCache, type GitScanCache, gitPaths } from "../src/tools/sandbox/git-scan.js";

// The cache is a security boundary: a `.git` the model creates between two commands must be
// bound read-only in the second one. Time is moved forward (Date only; the files are real) so
// the directories' ctimes are old enough to be trusted, as they are between real commands.
describe("git scan cache", () => {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), "oi-git-scan-")));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const at = (p: string) => path.join(dir, p);
  const file = (p: string, text = "") => {
    mkdirSync(path.dirname(at(p)), { recursive: true });
    writeFileSync(at(p), text);
  };
  const options = (cache: GitScanCache) => ({ maxDepth: 3, limit: 1000, cache });
  let now = Date.now();
  const later = () => {
    now += 10_000;
    vi.setSystemTime(now);
  };

  beforeEach(() => vi.useFakeTimers({ toFake: ["Date"] }));
  afterEach(() => vi.useRealTimers());

  it("reuses a scan while nothing changed, and rescans when a .git appears below", async () => {
    file("ws/.git/HEAD");
    file("ws/src/lib/index.ts");
    const cache = createGitScanCache();
    later();
    expect(await gitPaths(at("ws"), options(cache))).toEqual([at("ws/.git")]);
    const first = [...cache.scans.values()][0];
    later();
    expect(await gitPaths(at("ws"), options(cache))).toEqual([at("ws/.git")]);
    expect([...cache.scans.values()][0]).toBe(first);

    file("ws/src/lib/vendored/.git/HEAD");
    later();
    expect(await gitPaths(at("ws"), options(cache))).toEqual([at("ws/.git"), at("ws/src/lib/vendored/.git")]);
    expect([...cache.scans.values()][0]).not.toBe(first);
  });

  it("checks a large tree's scan as thoroughly as a small one's", async () => {
    // Past a hundred directories the scan is checked through the thread pool, not inline.
    file("big/.git/HEAD");
    for (let i = 0; i < 120; i++) file(`big/d${i}/sub/x.txt`);
    const cache = createGitScanCache();
    later();
    expect(await gitPaths(at("big"), options(cache))).toEqual([at("big/.git")]);
    expect([...cache.scans.values()][0]?.listed.length).toBeGreaterThan(200);
    file("big/d7/sub/.git/HEAD");
    later();
    expect(await gitPaths(at("big"), options(cache))).toEqual([at("big/.git"), at("big/d7/sub/.git")]);
  });

  it("does not reuse the listing of a directory changed within the last moments", async () => {
    // A coarse-timestamp filesystem can change a directory twice in one ctime tick: a listing
    // taken that close to a change is never reused, even when the ctime still matches.
    file("racy/.git/HEAD");
    file("racy/sub/x.txt");
    const cache = createGitScanCache();
    await gitPaths(at("racy"), options(cache));
    const scan = [...cache.scans.values()][0];
    expect(await gitPaths(at("racy"), options(cache))).toEqual([at("racy/.git")]);
    expect([...cache.scans.values()][0]).not.toBe(scan);
  });

  it("follows a .git file again on every call, and survives a deleted directory", async () => {
    file("main/.git/HEAD");
    file("other/.git/HEAD");
    file("wt/.git", `gitdir: ${at("main/.git")}\n`);
    file("wt/pkg/a.txt");
    const cache = createGitScanCache();
    later();
    expect(await gitPaths(at("wt"), options(cache))).toEqual([at("wt/.git"), at("main/.git")]);
    writeFileSync(at("wt/.git"), `gitdir: ${at("other/.git")}\n`);
    later();
    expect(await gitPaths(at("wt"), options(cache))).toEqual([at("wt/.git"), at("other/.git")]);
    rmSync(at("wt/pkg"), { recursive: true });
    later();
    expect(await gitPaths(at("wt"), options(cache))).toEqual([at("wt/.git"), at("other/.git")]);
  });
});

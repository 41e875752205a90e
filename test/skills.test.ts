import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadSkills } from "../src/context/skills/load-skills.js";
import { skillRoots } from "../src/context/skills/skill-roots.js";

function skill(dir: string, name: string, description: string, extra = ""): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, "SKILL.md"),
    `---\nname: ${name}\ndescription: ${description}\n${extra}---\n\n# ${name}\nSteps.\n`,
  );
}

function layout() {
  const base = mkdtempSync(path.join(os.tmpdir(), "oi-skills-"));
  const home = path.join(base, "home");
  const repo = path.join(base, "repo");
  const cwd = path.join(repo, "packages/app");
  mkdirSync(path.join(repo, ".git"), { recursive: true });
  writeFileSync(path.join(repo, ".git", "HEAD"), "ref: refs/heads/main\n");
  mkdirSync(cwd, { recursive: true });
  const roots = () =>
    skillRoots({
      cwd,
      projectRoot: repo,
      userHome: home,
      interpreterHome: path.join(home, ".openinterpreter"),
    });
  return { base, home, repo, cwd, roots };
}

describe("skills", () => {
  it("finds project and user skills and validates front matter, naming the file and the problem", async () => {
    const { home, repo, cwd, roots } = layout();
    skill(path.join(repo, ".agents/skills/deploy"), "deploy", "Deploy the app. Use when shipping.");
    skill(
      path.join(cwd, ".agents/skills/lint-fix"),
      "lint-fix",
      "Fix lint errors.",
      "license: MIT\nmetadata:\n  owner: team\n",
    );
    skill(path.join(home, ".agents/skills/Bad_Name"), "Bad_Name", "x");
    skill(path.join(home, ".agents/skills/wrong-folder"), "other-name", "x");
    skill(path.join(home, ".agents/skills/empty"), "empty", '""');
    const catalog = await loadSkills(roots());
    expect(catalog.skills.map((s) => s.name).sort()).toEqual(["deploy", "lint-fix"]);
    expect(catalog.skills.find((s) => s.name === "lint-fix")).toMatchObject({
      license: "MIT",
      metadata: { owner: "team" },
      path: path.join(cwd, ".agents/skills/lint-fix/SKILL.md"),
    });
    expect(catalog.notices).toHaveLength(1);
    const notice = catalog.notices[0]!;
    expect(notice).toContain(`${path.join(home, ".agents/skills/Bad_Name/SKILL.md")}: \`name\``);
    expect(notice).toContain("does not match its folder `wrong-folder`");
    expect(notice).toContain(`${path.join(home, ".agents/skills/empty/SKILL.md")}: \`description\``);
  });

  it("keeps one entry per name: project over user, canonical over legacy, and says what was shadowed", async () => {
    const { home, repo, roots } = layout();
    skill(path.join(repo, ".agents/skills/review"), "review", "Project review.");
    skill(path.join(repo, ".claude/skills/review"), "review", "Claude review.");
    skill(path.join(home, ".agents/skills/review"), "review", "User review.");
    skill(path.join(home, ".codex/skills/only-legacy"), "only-legacy", "From codex.");
    const catalog = await loadSkills(roots());
    expect(catalog.skills.map((s) => [s.name, s.description])).toEqual([
      ["review", "Project review."],
      ["only-legacy", "From codex."],
    ]);
    expect(catalog.notices).toHaveLength(1);
    expect(catalog.notices[0]).toContain(path.join(repo, ".claude/skills/review/SKILL.md"));
    expect(catalog.notices[0]).toContain(path.join(home, ".agents/skills/review/SKILL.md"));
  });

  it("treats symlinked vendor folders and byte-identical copies as one skill, silently", async () => {
    const { home, roots } = layout();
    skill(path.join(home, ".agents/skills/pdf"), "pdf", "Work with PDFs.");
    mkdirSync(path.join(home, ".claude"));
    symlinkSync(path.join(home, ".agents/skills"), path.join(home, ".claude/skills"));
    skill(path.join(home, ".codex/skills/pdf"), "pdf", "Work with PDFs.");
    const catalog = await loadSkills(roots());
    expect(catalog.skills.map((s) => s.name)).toEqual(["pdf"]);
    expect(catalog.notices).toEqual([]);
  });

  it("does not look for skills inside a skill", async () => {
    const { repo, roots } = layout();
    skill(path.join(repo, ".agents/skills/outer"), "outer", "Outer.");
    skill(path.join(repo, ".agents/skills/outer/examples/inner"), "inner", "Inner.");
    const catalog = await loadSkills(roots());
    expect(catalog.skills.map((s) => s.name)).toEqual(["outer"]);
  });
});

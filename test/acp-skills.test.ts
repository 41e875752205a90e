import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";
import { type InProcessAgent, startInProcess, tempDir, until } from "./support/in-process.js";

let model: FakeModel;
let oi: InProcessAgent;
afterEach(async () => {
  await oi?.close();
  await model?.close();
});

function skill(root: string, name: string, front: string, body = "Run `npm run release` and check the tag.") {
  mkdirSync(path.join(root, name), { recursive: true });
  writeFileSync(path.join(root, name, "SKILL.md"), `---\n${front}\n---\n${body}\n`);
}

it("offers skills to the model and as slash commands, and reports invalid ones", async () => {
  model = await startFakeModel();
  const home = tempDir("oi-home-");
  const cwd = tempDir("oi-ws-");
  mkdirSync(path.join(cwd, ".git"), { recursive: true });
  writeFileSync(path.join(cwd, ".git", "HEAD"), "ref: refs/heads/main\n");
  skill(
    path.join(cwd, ".agents/skills"),
    "release",
    "name: release\ndescription: Cut a release. Use when shipping.",
  );
  skill(path.join(home, ".agents/skills"), "broken", "name: Broken\ndescription: nope");
  oi = await startInProcess({ model, home });
  const { sessionId } = await oi.newSession({ cwd });

  await until(() =>
    oi.editor
      .updates(sessionId)
      .some(
        (u) =>
          u.sessionUpdate === "available_commands_update" &&
          u.availableCommands.some((c) => c.name === "release"),
      ),
  );
  await until(() => oi.editor.text(sessionId).includes("Skipped invalid skills"));
  expect(oi.editor.text(sessionId)).toContain(path.join(home, ".agents/skills/broken/SKILL.md"));

  model.reply({ text: "Releasing." });
  await oi.prompt(sessionId, "/release v1.2");
  const messages = model.requests[0]!.body.messages as Array<{ role: string; content: unknown }>;
  const catalog = messages.find(
    (m) => typeof m.content === "string" && m.content.includes("<skills_instructions>"),
  );
  // Codex names each skill's file by a short alias of the folder that holds the skills.
  expect(catalog?.content).toContain(
    `### Skill roots\n- \`r0\` = \`${path.join(cwd, ".agents/skills")}\`\n### Available skills\n- release: Cut a release. Use when shipping. (file: r0/release/SKILL.md)\n`,
  );
  expect(JSON.stringify(messages.at(-1))).toContain("Run `npm run release` and check the tag.");
  expect(JSON.stringify(messages.at(-1))).toContain("/release v1.2");
});

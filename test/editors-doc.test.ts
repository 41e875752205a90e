import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { COMMANDS } from "../src/cli/commands.js";
import { openStore } from "../src/store/open-store.js";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";
import { tempDir } from "./support/in-process.js";
import { needs } from "./support/requires.js";
import { BIN } from "./support/spawn-agent.js";

const run = promisify(execFile);
const DOC = readFileSync("docs/editors.md", "utf8");
const NVIM_CLIENT = path.resolve("test/fixtures/nvim-acp-session.lua");

interface Snippet {
  lang: string;
  code: string;
  /** The heading the snippet sits under, for failure messages. */
  section: string;
}

function snippets(markdown: string): Snippet[] {
  const found: Snippet[] = [];
  let section = "";
  let open: Snippet | undefined;
  for (const line of markdown.split("\n")) {
    if (open) {
      if (line.startsWith("```")) {
        found.push(open);
        open = undefined;
      } else open.code += `${line}\n`;
      continue;
    }
    if (line.startsWith("#")) section = line.replace(/^#+\s*/, "");
    const fence = /^```(\S*)$/.exec(line);
    if (fence) open = { lang: fence[1] ?? "", code: "", section };
  }
  expect(open, "an unclosed code fence").toBeUndefined();
  return found;
}

const all = snippets(DOC);
const of = (...langs: string[]) => all.filter((s) => langs.includes(s.lang));

/** The `interpreter` subcommands a snippet starts, read the way its editor reads the command line. */
function namedCommands(snippet: Snippet): string[] {
  const { code, lang } = snippet;
  if (lang === "json" || lang === "jsonc") {
    const servers = (
      parseJson(snippet) as {
        agent_servers: Record<string, { command: string; args: string[]; env?: Record<string, string> }>;
      }
    ).agent_servers;
    // codex-acp runs `$CODEX_PATH app-server`: pointed at us, it starts that command.
    return Object.values(servers).map((server) =>
      server.command.endsWith("interpreter")
        ? (server.args[0] ?? "")
        : server.env?.CODEX_PATH?.endsWith("interpreter")
          ? "app-server"
          : "(not interpreter)",
    );
  }
  const patterns: Record<string, RegExp> = {
    lua: /(?:\{\s*"interpreter",\s*"([^"]+)"|command = "interpreter",\s*args = \{\s*"([^"]+)")/g,
    elisp: /:command "interpreter"\s*:command-params '\("([^"]+)"/g,
    js: /spawn\("interpreter", \["([^"]+)"/g,
    sh: /^interpreter (\S+)/gm,
  };
  const pattern = patterns[lang];
  if (!pattern) return [];
  return [...code.matchAll(pattern)].map((m) => m[1] ?? m[2] ?? "");
}

function parseJson(snippet: Snippet): unknown {
  // Zed's settings.json is JSONC: whole-line `//` comments are allowed.
  const text = snippet.lang === "jsonc" ? snippet.code.replace(/^\s*\/\/.*$/gm, "") : snippet.code;
  return JSON.parse(text);
}

/** Whether every paren closes, outside strings, comments and character literals like `?\(`. */
function balancedLisp(code: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < code.length; i++) {
    const c = code[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === ";") while (i < code.length && code[i] !== "\n") i++;
    else if (c === "?" && code[i + 1] === "\\") i += 2;
    else if (c === "(") depth++;
    else if (c === ")" && --depth < 0) return false;
  }
  return depth === 0 && !inString;
}

let model: FakeModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

describe("docs/editors.md", () => {
  it("has a snippet for every editor and client the issue names", () => {
    const sections = new Set(all.map((s) => s.section));
    for (const name of ["Zed", "CodeCompanion", "avante.nvim", "JetBrains IDEs", "Emacs (agent-shell)"]) {
      expect(sections, name).toContain(name);
    }
    expect(of("js")).toHaveLength(1);
    expect(of("sh")).toHaveLength(1);
  });

  it("JSON snippets parse (JSONC comments stripped for Zed) and use the agent_servers shape", () => {
    const json = of("json", "jsonc");
    expect(json.length).toBeGreaterThanOrEqual(2);
    for (const snippet of json) {
      const servers = (parseJson(snippet) as { agent_servers?: Record<string, unknown> }).agent_servers;
      expect(servers, snippet.section).toBeTypeOf("object");
      for (const server of Object.values(servers ?? {})) {
        expect(server).toMatchObject({ command: expect.any(String), args: expect.any(Array) });
      }
    }
    expect(
      (parseJson(of("jsonc")[0]!) as { agent_servers: Record<string, { type: string }> }).agent_servers[
        "Open Interpreter"
      ]!.type,
    ).toBe("custom");
  });

  it("every snippet names a command our CLI has", () => {
    for (const snippet of all) {
      const commands = namedCommands(snippet);
      expect(
        commands.length,
        `${snippet.section} (${snippet.lang}) names no interpreter command`,
      ).toBeGreaterThan(0);
      for (const command of commands) expect(Object.keys(COMMANDS), snippet.section).toContain(command);
    }
    expect(namedCommands({ lang: "sh", code: "interpreter acpx\n", section: "x" })).toEqual(["acpx"]);
  });

  it("Emacs Lisp snippets have balanced parentheses", () => {
    const elisp = of("elisp");
    expect(elisp.length).toBeGreaterThan(0);
    for (const snippet of elisp) expect(balancedLisp(snippet.code), snippet.section).toBe(true);
    expect(balancedLisp('(a "(" ?\\( (b))')).toBe(true);
    expect(balancedLisp("(a (b)")).toBe(false);
    expect(balancedLisp("(a))(")).toBe(false);
  });

  needs("nvim").it("Lua snippets load in Neovim's Lua (a broken one is caught)", async () => {
    const dir = tempDir("oi-lua-");
    const files = of("lua").map((snippet, i) => {
      const file = path.join(dir, `snippet-${i}.lua`);
      writeFileSync(file, snippet.code);
      return file;
    });
    expect(files.length).toBeGreaterThanOrEqual(3);
    const broken = path.join(dir, "broken.lua");
    writeFileSync(broken, 'require("avante").setup({\n  provider = "x",\n');
    const checker = path.join(dir, "check.lua");
    writeFileSync(
      checker,
      `local results = {}
for _, file in ipairs(vim.fn.json_decode(os.getenv("LUA_FILES"))) do
  local chunk, err = loadfile(file)
  results[file] = chunk and "ok" or err
end
vim.fn.writefile({ vim.fn.json_encode(results) }, os.getenv("LUA_OUT"))
vim.cmd("qall!")
`,
    );
    const out = path.join(dir, "out.json");
    await run("nvim", ["--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", `luafile ${checker}`], {
      env: { ...process.env, LUA_FILES: JSON.stringify([...files, broken]), LUA_OUT: out },
      timeout: 20_000,
    });
    const results = JSON.parse(readFileSync(out, "utf8")) as Record<string, string>;
    for (const file of files) expect(results[file], readFileSync(file, "utf8")).toBe("ok");
    expect(results[broken]).toMatch(/'}' expected|unexpected symbol|<eof>/);
  });

  needs("nvim").it(
    "headless Neovim: jobstart + initialize + session/new gets a session id that is in the database",
    async () => {
      model = await startFakeModel();
      const home = tempDir("oi-nvim-home-");
      const cwd = tempDir("oi-nvim-ws-");
      const out = path.join(home, "nvim-result.json");
      await run("nvim", ["--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", `luafile ${NVIM_CLIENT}`], {
        cwd,
        env: {
          PATH: process.env.PATH,
          HOME: home,
          INTERPRETER_HOME: home,
          OPENAI_BASE_URL: model.url,
          OPENAI_API_KEY: "sk-nvim",
          OI_AGENT: JSON.stringify([process.execPath, BIN, "acp", "--in-process", "-m", "fake-model"]),
          OI_CWD: cwd,
          OI_OUT: out,
        },
        timeout: 30_000,
      });
      const result = JSON.parse(readFileSync(out, "utf8")) as {
        sessionId?: string;
        protocolVersion?: number;
        lines: string[];
      };
      expect(result.protocolVersion, result.lines.join("\n")).toBe(1);
      expect(result.sessionId).toMatch(/^[0-9a-f-]{36}$/);
      const store = openStore({ path: path.join(home, "openinterpreter.db") });
      try {
        expect(store.getSession(result.sessionId!)).toMatchObject({ cwd, model: "fake-model" });
      } finally {
        store.close();
      }
    },
  );

  it("the Node script and the exec one-liner run as written and print the model's answer", async () => {
    model = await startFakeModel();
    model.reply({ text: "This repository is a test fixture." }, { text: "Three sentences about it." });
    const home = tempDir("oi-script-home-");
    writeFileSync(path.join(home, "config.toml"), 'model = "fake-model"\n');
    // `interpreter` on PATH, as `npm install -g` would leave it; the script finds the SDK installed.
    const bin = path.join(home, "bin");
    mkdirSync(bin);
    symlinkSync(BIN, path.join(bin, "interpreter"));
    const project = tempDir("oi-script-ws-");
    symlinkSync(path.resolve("node_modules"), path.join(project, "node_modules"));
    writeFileSync(path.join(project, "ask.mjs"), of("js")[0]!.code);
    const env = {
      PATH: `${bin}:${process.env.PATH}`,
      HOME: home,
      INTERPRETER_HOME: home,
      OPENAI_BASE_URL: model.url,
      OPENAI_API_KEY: "sk-script",
    };
    const script = await run(process.execPath, ["ask.mjs", "what does this repo do?"], {
      cwd: project,
      env,
      timeout: 30_000,
    });
    expect(script.stdout).toBe("This repository is a test fixture.\n");
    const oneLiner = await run("sh", ["-c", of("sh")[0]!.code], { cwd: project, env, timeout: 30_000 });
    expect(oneLiner.stderr).not.toContain("interpreter:");
    expect(readFileSync(path.join(project, "summary.md"), "utf8")).toBe("Three sentences about it.\n");
    const prompts = model.requests.map(
      (r) => (r.body.messages as Array<{ content: unknown }>).at(-1)!.content,
    );
    expect(prompts).toEqual([
      "what does this repo do?",
      "summarize what this repository does in three sentences",
    ]);
  });
});

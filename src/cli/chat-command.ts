import { existsSync } from "node:fs";
import path from "node:path";
import { connectLocalClient, type LocalClient, type LocalSession } from "../acp/local-client.js";
import { needsSetup } from "../config/needs-setup.js";
import { MODES } from "../config/types.js";
import {
  AGENT_OPTIONS,
  type AgentSource,
  configOrReport,
  openAgentSource,
  wantsDaemon,
} from "./agent-source.js";
import { parseCommandArgs } from "./args.js";
import { ChatApp } from "./chat/chat-app.js";
import type { ChatView } from "./chat/chat-view.js";
import { firstRun, setupAdvice } from "./chat/first-run.js";
import { createLineInput } from "./chat/line-input.js";
import { Renderer } from "./chat/renderer.js";
import { pickSession } from "./chat/session-picker.js";
import { colourWanted, createStyle, type Style } from "./chat/style.js";
import type { TerminalInput } from "./chat/terminal-input.js";
import { VERSION } from "./version.js";

const CHAT_OPTIONS = {
  cd: { type: "string", short: "C" },
  mode: { type: "string" },
  "full-auto": { type: "boolean" },
  resume: { type: "string" },
  last: { type: "boolean" },
  ...AGENT_OPTIONS,
} as const;

/**
 * `interpreter` / `interpreter chat`: the interactive terminal chat, a client of the same ACP
 * agent the editors use (in this process, or with `--daemon` the shared daemon's, where editor
 * windows see its sessions live). `--resume [ID]` and `--last` continue a stored session.
 */
export async function chatCommand(argv: string[]): Promise<number> {
  const args = parseCommandArgs(bareResume(argv), CHAT_OPTIONS);
  const mode = args.values["full-auto"] ? "full-access" : args.values.mode;
  if (mode && !(MODES as readonly string[]).includes(mode)) {
    process.stderr.write(`interpreter: unknown mode '${mode}' (expected ${MODES.join(", ")})\n`);
    return 2;
  }
  const daemon = wantsDaemon(args.values);
  if (typeof daemon === "string") {
    process.stderr.write(`interpreter: ${daemon}\n`);
    return 2;
  }
  const config = configOrReport(args.overrides, process.env);
  if (!config) return 1;
  const stdout = process.stdout;
  const terminal = Boolean(process.stdin.isTTY && stdout.isTTY);
  const style = createStyle(colourWanted({ isTTY: Boolean(stdout.isTTY), env: process.env }));
  const columns = () => stdout.columns || 80;
  const cwd = path.resolve(args.values.cd ?? process.cwd());
  let app: ChatApp | undefined;
  // On a terminal the chat is drawn by pi-tui, loaded now (never while the snapshot is built).
  const screen = terminal
    ? (await import("./chat/chat-screen.js")).openScreen({
        style,
        cwd,
        home: config.home,
        commands: () => app?.commands() ?? [],
      })
    : undefined;
  const renderer: ChatView =
    screen?.view ?? new Renderer({ write: (text) => void stdout.write(text), style, columns });
  const input: TerminalInput =
    screen?.input ??
    createLineInput({ input: process.stdin, output: stdout, showPrompts: Boolean(process.stdin.isTTY) });
  const chat = new ChatApp({
    renderer,
    input,
    style,
    columns,
    echoInput: terminal || !process.stdin.isTTY,
    cwd,
    modelTakesImages: config.modelSupportsImages,
    ...(screen ? { afterTurn: screen.filesChanged, images: screen.images } : {}),
  });
  app = chat;
  let client: LocalClient | undefined;
  let agent: AgentSource | undefined;
  try {
    if (needsSetup({ config, configFileExists: existsSync(config.file) })) {
      if (!terminal) {
        renderer.lines(await setupAdvice({ file: config.file, env: process.env, style }));
        return 1;
      }
      const setup = await firstRun({
        file: config.file,
        env: process.env,
        input,
        renderer,
        style,
      });
      if (setup.type === "quit") return setup.code;
    }
    // Opened after the first-run setup, so the agent (or a daemon it starts) reads the new file.
    agent = await openAgentSource({ overrides: args.overrides, env: process.env, daemon });
    if (!agent) return 1;
    client = await connectLocalClient({
      ...agent.link,
      version: VERSION,
      name: "interpreter-chat",
      onUpdate: chat.onUpdate,
      onPermission: chat.onPermission,
    });
    const session = await openSession({
      client,
      cwd,
      resume: args.values.resume,
      last: args.values.last,
      input,
      renderer,
      style,
    });
    if (!session) return 1;
    renderer.cwd = session.cwd;
    if (mode) session.configOptions = await client.setConfigOption("mode", mode);
    renderer.lines(banner({ chat, style, cwd: session.cwd, sessionId: session.sessionId, config: session }));
    return await chat.run(client, session, args.positionals.join(" ").trim() || undefined);
  } catch (error) {
    renderer.failed(error instanceof Error ? error.message : String(error));
    return 1;
  } finally {
    if (screen) await screen.stop();
    else input.close();
    client?.close();
    await agent?.close();
  }
}

/** `--resume` with no id (last, or before another flag) asks which session: `--resume=`. */
function bareResume(argv: string[]): string[] {
  return argv.map((arg, i) => {
    const next = argv[i + 1];
    return arg === "--resume" && (next === undefined || next.startsWith("-")) ? "--resume=" : arg;
  });
}

async function openSession(options: {
  client: LocalClient;
  cwd: string;
  resume: string | undefined;
  last: boolean | undefined;
  input: TerminalInput;
  renderer: ChatView;
  style: Style;
}): Promise<(LocalSession & { cwd: string }) | undefined> {
  const { client, cwd, renderer } = options;
  renderer.cwd = cwd;
  if (options.resume === undefined && !options.last) return { ...(await client.newSession(cwd)), cwd };
  const id = options.resume
    ? await findSession(client, options.resume)
    : options.last
      ? (await client.listSessions(cwd))[0]
      : await pickSession({ client, cwd, input: options.input });
  if (!id && options.resume) {
    renderer.failed(`no stored session matches '${options.resume}'`);
    return undefined;
  }
  if (!id && options.last) {
    renderer.failed(`no earlier session in ${cwd}`);
    return undefined;
  }
  if (!id) return { ...(await client.newSession(cwd)), cwd };
  renderer.clear();
  renderer.info(`Resuming ${id.sessionId}${id.title ? ` · ${id.title}` : ""}`);
  renderer.replaying = true;
  try {
    return { ...(await client.loadSession(id.sessionId, id.cwd)), cwd: id.cwd };
  } finally {
    renderer.replaying = false;
    renderer.lines([options.style.dim("─".repeat(24))]);
  }
}

/** An exact id, or a unique prefix of one among the stored sessions. */
async function findSession(client: LocalClient, idOrPrefix: string) {
  const sessions = await client.listSessions();
  const exact = sessions.find((s) => s.sessionId === idOrPrefix);
  if (exact) return exact;
  const matches = sessions.filter((s) => s.sessionId.startsWith(idOrPrefix));
  return matches.length === 1 ? matches[0] : undefined;
}

function banner(options: {
  chat: ChatApp;
  style: Style;
  cwd: string;
  sessionId: string;
  config: LocalSession;
}): string[] {
  const { style, chat } = options;
  const setting = (id: string) =>
    chat.setting(id) ?? String(options.config.configOptions.find((o) => o.id === id)?.currentValue ?? "?");
  return [
    `${style.bold("Open Interpreter")} ${style.dim(`v${VERSION}`)} · model ${style.bold(setting("model"))} · harness ${setting("harness")} · mode ${setting("mode")}`,
    style.dim(`${options.cwd} · session ${options.sessionId}`),
    style.dim("Type a message · / for commands · @ for files · Esc interrupts · Ctrl-D quits · /help"),
    "",
  ];
}

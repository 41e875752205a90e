import type {
  ContentBlock,
  LocalClient,
  LocalSession,
  PermissionChoice,
  RequestPermissionRequest,
  SessionConfigOption,
  SessionUpdate,
} from "../../acp/local-client.js";
import type { ChatView } from "./chat-view.js";
import type { ImageAttachments } from "./image-attach.js";
import { askPermission } from "./permission-prompt.js";
import { optionPick, PICKED_COMMANDS, type PickedCommand, sessionPick } from "./slash-pickers.js";
import type { Style } from "./style.js";
import type { TerminalInput } from "./terminal-input.js";

/** Commands the chat itself answers (the agent's own arrive in `available_commands_update`). */
const LOCAL_COMMANDS = [
  { name: "exit", description: "Quit (also Ctrl-D, or Ctrl-C twice)" },
  { name: "help", description: "Show the keys and commands" },
  { name: "resume", description: "Continue another session of this folder" },
];

export interface ChatAppOptions {
  renderer: ChatView;
  input: TerminalInput;
  style: Style;
  columns(): number;
  /** Repeat each prompt in the transcript (the composer empties on Enter; a pipe never echoed it). */
  echoInput: boolean;
  /** The session's folder (`/resume` lists its sessions). */
  cwd: string;
  /** After each turn (the agent may have written files). */
  afterTurn?(): void;
  /** Images attached in the composer (a terminal's chat only). */
  images?: ImageAttachments;
  /** The configured model reads images (`model_supports_images`). */
  modelTakesImages: boolean;
}

/**
 * The interactive loop: read a prompt, run it as one ACP turn, render what comes back, answer
 * permission questions with single keys. Esc or Ctrl-C cancels a running turn (Ctrl-C again
 * quits); at the prompt, Ctrl-C twice or Ctrl-D quits. On a terminal `/harness`, `/model`,
 * `/mode` and `/resume` alone open a list; typed with an argument they run as typed.
 */
export class ChatApp {
  private client: LocalClient | undefined;
  private agentCommands: { name: string; description: string }[] = [];
  private config: SessionConfigOption[] = [];
  private cancelling = false;
  /** The session shown now (`/resume` offers the others). */
  private sessionId = "";

  constructor(private readonly options: ChatAppOptions) {}

  /** `/` names for completion: the agent's commands plus the chat's own. */
  commands = (): { name: string; description: string }[] => [...this.agentCommands, ...LOCAL_COMMANDS];

  onUpdate = (update: SessionUpdate): void => {
    if (update.sessionUpdate === "available_commands_update") {
      this.agentCommands = update.availableCommands.map((c) => ({
        name: c.name,
        description: c.description,
      }));
    } else if (update.sessionUpdate === "config_option_update") {
      this.config = update.configOptions;
    }
    this.options.input.above(() => this.options.renderer.update(update));
  };

  onPermission = (request: RequestPermissionRequest, signal: AbortSignal): Promise<PermissionChoice> =>
    askPermission({
      request,
      signal,
      input: this.options.input,
      renderer: this.options.renderer,
      style: this.options.style,
      width: this.options.columns(),
      cancelTurn: () => this.cancel(),
    });

  /** Runs until the user quits; `first` is sent as the first prompt when given. */
  async run(client: LocalClient, session: LocalSession, first?: string): Promise<number> {
    this.client = client;
    this.sessionId = session.sessionId;
    if (this.config.length === 0) this.config = session.configOptions;
    const { input, renderer, style } = this.options;
    renderer.configure(this.config);
    let armed = false;
    let pending = first;
    for (;;) {
      // A prompt given on the command line was never typed, so never echoed: echo it like a pipe's.
      const echo = this.options.echoInput || pending !== undefined;
      const result = pending
        ? { type: "line" as const, text: pending }
        : await input.readLine(style.bold(style.cyan("› ")));
      pending = undefined;
      if (result.type === "eof") return 0;
      if (result.type === "interrupt") {
        if (result.hadText) continue;
        if (armed) return 0;
        armed = true;
        renderer.info("Press Ctrl-C again (or Ctrl-D) to quit.");
        continue;
      }
      armed = false;
      const text = result.text.trim();
      if (!text) continue;
      if (text === "/exit" || text === "/quit") return 0;
      if (text === "/help") {
        if (echo) renderer.lines(this.echoed(text));
        renderer.lines(this.help());
        continue;
      }
      // A list picked from is shown as the command it makes (`/harness pi`); a list left with
      // Esc leaves nothing behind.
      const picked = await this.picked(client, text);
      if (picked === undefined) continue;
      if (echo) renderer.lines(this.echoed(picked));
      if ((await this.turn(client, picked)) === "quit") return 0;
      this.options.afterTurn?.();
    }
  }

  /** The current value of a config option (model, mode, harness) as the agent last reported it. */
  setting(id: string): string | undefined {
    const option = this.config.find((o) => o.id === id);
    return option && "currentValue" in option ? String(option.currentValue) : undefined;
  }

  /** `/harness` and friends alone: the command with the picked value (undefined: nothing to send). */
  private async picked(client: LocalClient, text: string): Promise<string | undefined> {
    const name = text.startsWith("/") ? text.slice(1) : "";
    if (name === "resume") {
      await this.resume(client);
      return undefined;
    }
    if (!this.options.input.interactive || !(PICKED_COMMANDS as readonly string[]).includes(name))
      return text;
    const pick = optionPick(this.config, name as PickedCommand);
    if (!pick) return text;
    const answer = await this.options.input.pick(pick);
    return answer.type === "picked" ? `${text} ${pick.items[answer.index]?.value}` : undefined;
  }

  private async resume(client: LocalClient): Promise<void> {
    const { input, renderer } = this.options;
    const sessions = (await client.listSessions(this.options.cwd)).filter(
      (s) => s.sessionId !== this.sessionId,
    );
    if (sessions.length === 0) return renderer.info(`No other stored session in ${this.options.cwd}.`);
    const answer = await input.pick(sessionPick(sessions, new Date()));
    const chosen = answer.type === "picked" ? sessions[answer.index] : undefined;
    if (!chosen) return;
    // The screen shows one session: the one being left goes before the other is replayed.
    renderer.clear();
    renderer.info(`Resuming ${chosen.sessionId}${chosen.title ? ` · ${chosen.title}` : ""}`);
    renderer.replaying = true;
    try {
      this.config = (await client.loadSession(chosen.sessionId, chosen.cwd)).configOptions;
      this.sessionId = chosen.sessionId;
      renderer.configure(this.config);
    } catch (error) {
      renderer.failed(error instanceof Error ? error.message : String(error));
    } finally {
      renderer.replaying = false;
      renderer.lines([this.options.style.dim("─".repeat(24))]);
    }
  }

  private echoed(text: string): string[] {
    const { style } = this.options;
    const [first, ...rest] = text.split("\n");
    return [
      "",
      style.bold(style.cyan(`› ${first}`)),
      ...rest.map((line) => style.bold(style.cyan(`  ${line}`))),
    ];
  }

  private async turn(client: LocalClient, text: string): Promise<"quit" | "done"> {
    const { input, renderer } = this.options;
    const prompt = await this.content(client, text);
    this.cancelling = false;
    let quit: () => void = () => {};
    const quitting = new Promise<"quit">((resolve) => {
      quit = () => resolve("quit");
    });
    const stop = input.watchInterrupts((soft) => {
      if (this.cancelling && !soft) {
        renderer.info("Quitting.");
        quit();
      } else this.cancel();
    });
    renderer.turnStarted();
    try {
      const outcome = await Promise.race([client.prompt(prompt), quitting]);
      if (outcome === "quit") return "quit";
      renderer.turnEnded(outcome);
    } catch (error) {
      renderer.failed(error instanceof Error ? error.message : String(error));
    } finally {
      stop();
      renderer.settle();
    }
    return "done";
  }

  /** The prompt with its attached images as ACP blocks; text alone, said so, where they cannot go. */
  private async content(client: LocalClient, text: string): Promise<string | ContentBlock[]> {
    const { images, renderer } = this.options;
    if (!images?.holdsImages(text)) return text;
    const why = !client.acceptsImages
      ? "the agent takes no images in a prompt"
      : !this.options.modelTakesImages
        ? "this model does not read images (config `model_supports_images = false`)"
        : undefined;
    if (why) renderer.info(`Sent without the image: ${why}; its path is in the text.`);
    return images.blocks(text, why === undefined);
  }

  private cancel(): void {
    if (this.cancelling) return;
    this.cancelling = true;
    this.options.renderer.info("Cancelling… (Ctrl-C again to quit)");
    void this.client?.cancel();
  }

  private help(): string[] {
    const { style } = this.options;
    const commands = this.commands().map(
      (c) => `  ${style.bold(`/${c.name}`.padEnd(12))} ${style.dim(c.description)}`,
    );
    const keys = this.options.input.interactive
      ? [
          "Keys: Enter sends · Shift+Enter, Ctrl-J or a trailing \\ adds a line · ↑/↓ history · Ctrl-R searches it",
          "  @ completes a file · / and Tab complete a command · Esc interrupts the turn · Ctrl-C twice quits",
          "  An image file's path, pasted (or a file dragged in) or taken from @, attaches the image",
          "  Ctrl-O expands folded output · Ctrl-T shows the whole transcript · Ctrl-D quits",
          "  /harness, /model, /mode and /resume alone open a list (arrows, type to filter)",
        ]
      : ["Each line is a prompt; a question is answered by the next line's first character."];
    return [
      ...keys,
      "Permission questions: y allow once · a always allow · n reject · N always reject",
      "Commands:",
      ...commands,
    ];
  }
}

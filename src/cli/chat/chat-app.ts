import type {
  LocalClient,
  PermissionChoice,
  RequestPermissionRequest,
  SessionConfigOption,
  SessionUpdate,
} from "../../acp/local-client.js";
import type { TerminalInput } from "./key-input.js";
import { askPermission } from "./permission-prompt.js";
import type { Renderer } from "./renderer.js";
import { LOCAL_COMMANDS } from "./slash-completer.js";
import type { Style } from "./style.js";

export interface ChatAppOptions {
  renderer: Renderer;
  input: TerminalInput;
  style: Style;
  columns(): number;
  /** Repeat each prompt in the transcript (the terminal did not echo it: input from a pipe). */
  echoInput: boolean;
}

/**
 * The interactive loop: read a prompt, run it as one ACP turn, render what comes back, answer
 * permission questions with single keys. Ctrl-C cancels a running turn (a second one quits);
 * at the prompt, Ctrl-C twice or Ctrl-D quits.
 */
export class ChatApp {
  private client: LocalClient | undefined;
  private agentCommands: { name: string; description: string }[] = [];
  private config: SessionConfigOption[] = [];
  private cancelling = false;

  constructor(private readonly options: ChatAppOptions) {}

  /** `/` names for Tab completion: the agent's commands plus the chat's own. */
  commandNames = (): string[] => [...this.agentCommands, ...LOCAL_COMMANDS].map((c) => c.name);

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
  async run(client: LocalClient, config: SessionConfigOption[], first?: string): Promise<number> {
    this.client = client;
    if (this.config.length === 0) this.config = config;
    const { input, renderer, style } = this.options;
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
        if (echo) renderer.lines([`› ${text}`]);
        renderer.lines(this.help());
        continue;
      }
      if (echo) renderer.lines([style.bold(style.cyan(`› ${text}`))]);
      if ((await this.turn(client, text)) === "quit") return 0;
    }
  }

  /** The current value of a config option (model, mode, harness) as the agent last reported it. */
  setting(id: string): string | undefined {
    const option = this.config.find((o) => o.id === id);
    return option && "currentValue" in option ? String(option.currentValue) : undefined;
  }

  private async turn(client: LocalClient, text: string): Promise<"quit" | "done"> {
    const { input, renderer } = this.options;
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
      const outcome = await Promise.race([client.prompt(text), quitting]);
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

  private cancel(): void {
    if (this.cancelling) return;
    this.cancelling = true;
    this.options.renderer.info("Cancelling… (Ctrl-C again to quit)");
    void this.client?.cancel();
  }

  private help(): string[] {
    const { style } = this.options;
    const commands = [...this.agentCommands, ...LOCAL_COMMANDS].map(
      (c) => `  ${style.bold(`/${c.name}`.padEnd(12))} ${style.dim(c.description)}`,
    );
    return [
      "Keys: Enter sends · Tab completes / names · Ctrl-C cancels the turn (twice quits) · Ctrl-D quits",
      "Permission questions: y allow once · a always allow · n reject · N always reject",
      "Commands:",
      ...commands,
    ];
  }
}

/**
 * Images attached in the chat's composer (a pasted or `@`-completed path) reach the model as
 * images, and `/resume` shows one session: driven in a real terminal (a private tmux server);
 * only the model is scripted.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, expect, it } from "vitest";
import { atPrompt, chatStarter } from "./support/chat-tmux.js";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";
import { tempDir } from "./support/in-process.js";
import { needs } from "./support/requires.js";
import { tmuxServer } from "./support/tmux-session.js";

const server = tmuxServer(`oi-images-test-${process.pid}`);
let model: FakeModel;
const home = tempDir("oi-home-");
const cwd = tempDir("oi-ws-");
const startChat = chatStarter({ server, home, cwd, modelUrl: () => model.url });
const shots = tempDir("oi-shots-");

/** The parts of the last user message the model was sent (a string is one text part). */
const lastUserParts = (): { type: string; text?: string; image_url?: { url: string } }[] => {
  const messages = model.requests.at(-1)?.body.messages ?? [];
  const user = messages.filter((m: { role: string }) => m.role === "user").at(-1);
  return typeof user?.content === "string" ? [{ type: "text", text: user.content }] : user.content;
};
const imageUrls = () => lastUserParts().flatMap((p) => (p.image_url ? [p.image_url.url] : []));
const texts = () => lastUserParts().flatMap((p) => (p.text !== undefined ? [p.text] : []));

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 30 } } })
    .png()
    .toBuffer();

beforeAll(async () => {
  model = await startFakeModel({ models: ["mock-model"] });
  writeFileSync(path.join(shots, "shot.png"), await png(4, 3));
  writeFileSync(path.join(shots, "my shot.png"), await png(5, 5));
  writeFileSync(path.join(shots, "big.png"), await png(3000, 1500));
  writeFileSync(path.join(shots, "fake.png"), "not an image at all\n");
  mkdirSync(path.join(cwd, "img"));
  writeFileSync(
    path.join(cwd, "img/logo.webp"),
    await sharp(await png(6, 6))
      .webp()
      .toBuffer(),
  );
});

afterAll(async () => {
  await server.kill();
  await model?.close();
});

needs("tmux").describe("images in the chat's composer, and /resume", () => {
  let chat: Awaited<ReturnType<typeof startChat>>;

  it("a pasted image path becomes a marker and goes to the model as the file's bytes", async () => {
    chat = await startChat("images", []);
    await chat.until(atPrompt);
    await chat.keys("-l", "what is in");
    await chat.paste(path.join(shots, "shot.png"));
    const composing = await chat.until(/\[image #1 shot\.png\]/);
    expect(composing).toMatch(/^ what is in \[image #1 shot\.png\]/m);
    expect(composing).not.toContain(shots);
    await chat.keys("-l", "please");
    model.reply({ text: "A red square." });
    await chat.keys("Enter");
    await chat.until("A red square.");
    const bytes = readFileSync(path.join(shots, "shot.png")).toString("base64");
    expect(imageUrls()).toEqual([`data:image/png;base64,${bytes}`]);
    expect(texts().join("")).toMatch(/what is in\s+please/);
    // The project's prompt history keeps the path: a marker would mean nothing to a later session.
    const history = readFileSync(path.join(home, "chat-history.jsonl"), "utf8");
    expect(history).toContain(`what is in ${path.join(shots, "shot.png")} please`);
  });

  it("a dragged path (escaped spaces, or quoted) attaches too; an @-completed image as well", async () => {
    await chat.until(atPrompt);
    await chat.paste(path.join(shots, "my shot.png").replace(/ /g, "\\ "));
    await chat.until(/\[image #2 my shot\.png\]/);
    await chat.paste(`'${path.join(shots, "shot.png")}'`);
    await chat.until(/\[image #3 shot\.png\]/);
    await chat.keys("-l", "and @logo");
    await chat.until(/img\/logo\.webp/);
    await chat.keys("Tab");
    await chat.until(/\[image #4 logo\.webp\]/);
    model.reply({ text: "Three images." });
    await chat.keys("Enter");
    await chat.until("Three images.");
    const urls = imageUrls();
    expect(urls.map((u) => u.slice(0, 15))).toEqual([
      "data:image/png;",
      "data:image/png;",
      "data:image/webp",
    ]);
    expect(urls[0]).toBe(
      `data:image/png;base64,${readFileSync(path.join(shots, "my shot.png")).toString("base64")}`,
    );
  });

  it("a path that is no image, or names no file, stays plain text", async () => {
    await chat.until(atPrompt);
    const fake = path.join(shots, "fake.png");
    const missing = path.join(shots, "gone.png");
    await chat.paste(fake);
    await chat.keys("-l", " and ");
    await chat.paste(missing);
    await chat.until(`and ${missing}`);
    model.reply({ text: "Only text." });
    await chat.keys("Enter");
    await chat.until("Only text.");
    expect(imageUrls()).toEqual([]);
    expect(texts().join("")).toContain(`${fake} and ${missing}`);
  });

  it("an over-large image is scaled into the bounds the agent holds images to", async () => {
    await chat.until(atPrompt);
    await chat.paste(path.join(shots, "big.png"));
    await chat.until(/\[image #\d+ big\.png\]/);
    model.reply({ text: "Big one." });
    await chat.keys("Enter");
    await chat.until("Big one.");
    const [url] = imageUrls();
    const data = Buffer.from((url ?? "").replace(/^data:image\/\w+;base64,/, ""), "base64");
    const meta = await sharp(data).metadata();
    expect([meta.width, meta.height]).toEqual([2000, 1000]);
    await chat.keys("C-d");
    await chat.until(/^EXITED 0$/m);
  });

  it("with a model that reads no images the chat says so and sends the text with the path", async () => {
    const text = await startChat("text-only", ["-c", "model_supports_images=false"]);
    await text.until(atPrompt);
    await text.keys("-l", "describe");
    await text.paste(path.join(shots, "shot.png"));
    await text.until(/\[image #1 shot\.png\]/);
    model.reply({ text: "I cannot see it." });
    await text.keys("Enter");
    const screen = await text.until("I cannot see it.");
    expect(screen).toContain("Sent without the image: this model does not read images");
    expect(imageUrls()).toEqual([]);
    expect(texts().join("")).toContain(`describe ${path.join(shots, "shot.png")}`);
    await text.keys("C-d");
    await text.until(/^EXITED 0$/m);
  });

  it("a picked /resume clears the session left before replaying the other, images in place", async () => {
    const first = await startChat("first", []);
    await first.until(atPrompt);
    model.reply({ text: "Answer of the first session." });
    await first.keys("-l", "first session question");
    await first.paste(path.join(shots, "shot.png"));
    await first.until(/\[image #1 shot\.png\]/);
    await first.keys("Enter");
    await first.until((s) => s.includes("Answer of the first session.") && atPrompt(s));
    await first.keys("C-d");
    await first.until(/^EXITED 0$/m);

    const second = await startChat("second", []);
    await second.until(atPrompt);
    model.reply({ text: "Answer of the second session." });
    await second.type("second session question");
    await second.until((s) => s.includes("Answer of the second session.") && atPrompt(s));
    await second.type("/resume");
    await second.until(/Resume a session of this folder/);
    await second.keys("-l", "first session");
    await second.keys("Enter");
    const screen = await second.until((s) => s.includes("Answer of the first session.") && atPrompt(s));
    // The replayed prompt is one line, its image in its place.
    expect(screen).toMatch(/^› first session question \[image\]$/m);
    expect(screen).not.toContain("second session question");
    expect(screen).not.toContain("Answer of the second session.");
    await second.keys("C-d");
    await second.until(/^EXITED 0$/m);
    model.assertDone();
  });
});

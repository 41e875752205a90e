/**
 * What the composer makes of a pasted path: which pastes name image files, the markers, and the
 * ACP blocks a prompt with markers becomes (real files, real sharp).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { ImageAttachments, pastedPaths, shellWords } from "../src/cli/chat/image-attach.js";
import { tempDir } from "./support/in-process.js";

const dir = tempDir("oi-attach-");
let red: Buffer;

beforeAll(async () => {
  red = await sharp({ create: { width: 3, height: 2, channels: 3, background: "#c00" } })
    .png()
    .toBuffer();
  mkdirSync(path.join(dir, "shots"));
  writeFileSync(path.join(dir, "shots/a b.png"), red);
  writeFileSync(path.join(dir, "shots/c.png"), red);
  writeFileSync(path.join(dir, "shots/photo.JPG"), await sharp(red).jpeg().toBuffer());
  writeFileSync(path.join(dir, "notes.txt"), "hello\n");
  writeFileSync(path.join(dir, "text.png"), "not a png\n");
});

describe("pasted paths", () => {
  it("split as a shell does: quotes, escaped spaces, an open quote is no list", () => {
    expect(shellWords(`'/a b.png' "/c d.png" /e\\ f.png`)).toEqual(["/a b.png", "/c d.png", "/e f.png"]);
    expect(shellWords(`"say \\"hi\\".png"`)).toEqual([`say "hi".png`]);
    expect(shellWords(`'/a b.png`)).toBeUndefined();
  });

  it("name files by path, relative path, file:// URL, or a path with bare spaces that exists", () => {
    const spaced = path.join(dir, "shots/a b.png");
    expect(pastedPaths(spaced, "/").map((p) => p.file)).toEqual([spaced]);
    expect(pastedPaths("shots/c.png", dir).map((p) => p.file)).toEqual([path.join(dir, "shots/c.png")]);
    expect(pastedPaths(pathToFileURL(spaced).href, "/").map((p) => p.file)).toEqual([spaced]);
    expect(pastedPaths("two\nlines", dir)).toEqual([]);
  });
});

describe("image attachments", () => {
  it("mark image files (by their bytes, any case of extension), several dropped at once", () => {
    const images = new ImageAttachments(dir);
    expect(images.attach(path.join(dir, "shots/a\\ b.png"))).toBe("[image #1 a b.png]");
    expect(images.attach(`${path.join(dir, "shots/c.png")} '${path.join(dir, "shots/photo.JPG")}'`)).toBe(
      "[image #2 c.png] [image #3 photo.JPG]",
    );
  });

  it("leave text, other files, fake images, missing files and half-image drops alone", () => {
    const images = new ImageAttachments(dir);
    for (const paste of ["look at this", "notes.txt", "text.png", "gone.png", `shots/c.png notes.txt`])
      expect(images.attach(paste)).toBeUndefined();
    expect(images.holdsImages("[image #1 c.png]")).toBe(false);
  });

  it("send text and images in the order typed; without images, the paths in the text", async () => {
    const images = new ImageAttachments(dir);
    const first = images.attach("shots/c.png") as string;
    const second = images.attach(path.join(dir, "shots/photo.JPG")) as string;
    const prompt = `compare ${first} with ${second} please`;
    const blocks = await images.blocks(prompt, true);
    expect(
      blocks.map((b) => (b.type === "text" ? b.text : `${b.type}:${"mimeType" in b ? b.mimeType : ""}`)),
    ).toEqual(["compare ", "image:image/png", " with ", "image:image/jpeg", " please"]);
    expect(blocks[1]).toMatchObject({ data: red.toString("base64") });
    expect(await images.blocks(prompt, false)).toEqual([
      { type: "text", text: `compare shots/c.png with ${path.join(dir, "shots/photo.JPG")} please` },
    ]);
    expect(images.plain(prompt)).toBe(`compare shots/c.png with ${path.join(dir, "shots/photo.JPG")} please`);
  });
});

import { mkdirSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { claudeCodeHarness } from "../src/harnesses/claude-code/claude-code-harness.js";
import { codexHarness } from "../src/harnesses/codex/codex-harness.js";
import { geminiCliHarness } from "../src/harnesses/gemini-cli/gemini-cli-harness.js";
import { kimiCodeHarness } from "../src/harnesses/kimi-code/kimi-code-harness.js";
import { IMAGE_BYTES, requestBytes } from "../src/sessions/usage-totals.js";
import type { ResultPart } from "../src/store/events.js";
import { claudeImage } from "../src/tools/image/claude-image.js";
import { codexBounds, codexImage } from "../src/tools/image/codex-image.js";
import { kimiImage } from "../src/tools/image/kimi-image.js";
import { harnessWorkspace, writeFileAt } from "./support/harness-fixtures.js";

// Each original's image sizing and texts, tool by tool. Sizes of Codex 0.171.0 were measured
// with its binary (view_image on the fallback model); Kimi Code 2.1.0's and Claude Code
// 2.1.44's are their measured notes and their algorithms on the same library Claude Code uses.

async function solid(width: number, height: number, format: "png" | "jpeg" | "gif" = "png"): Promise<Buffer> {
  const image = sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } });
  return format === "png"
    ? image.png().toBuffer()
    : format === "jpeg"
      ? image.jpeg().toBuffer()
      : image.gif().toBuffer();
}

/** Random pixels: the worst case for every encoder. */
async function noise(width: number, height: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  let seed = 42;
  for (let i = 0; i < pixels.length; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    pixels[i] = seed >>> 24;
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

async function dims(data: Buffer | string): Promise<string> {
  const meta = await sharp(typeof data === "string" ? Buffer.from(data, "base64") : data).metadata();
  return `${meta.width}x${meta.height}`;
}

function image(parts: ResultPart[] | undefined): Extract<ResultPart, { type: "image" }> {
  const found = parts?.find((part) => part.type === "image");
  if (found?.type !== "image") throw new Error("no image part");
  return found;
}

describe("Codex 0.171 sizing", () => {
  it("scales within 2048 px and 2500 patches of 32 px exactly as the measured binary did", () => {
    const measured: Array<[number, number, number, number]> = [
      [3000, 2000, 1920, 1280],
      [4000, 500, 2048, 256],
      [1500, 1400, 1500, 1400],
      [2048, 2048, 1600, 1600],
      [1700, 1700, 1600, 1600],
      [1920, 1281, 1920, 1281],
      [2049, 100, 2048, 100],
      [100, 3000, 68, 2048],
      [2560, 1440, 2048, 1152],
      [1000, 3000, 683, 2048],
      [2500, 1700, 1920, 1305],
      [1234, 4321, 585, 2048],
      [2600, 1000, 2048, 788],
      [1601, 1601, 1600, 1600],
      [1700, 1600, 1632, 1536],
      [1999, 1333, 1919, 1280],
      [2222, 1111, 2048, 1024],
      [1900, 1400, 1824, 1344],
      [2047, 1300, 1965, 1248],
    ];
    for (const [width, height, w, h] of measured)
      expect(codexBounds({ width, height }), `${width}x${height}`).toEqual({ width: w, height: h });
  });

  it("keeps PNG, JPEG and WebP within bounds byte for byte, re-encodes a GIF as PNG, refuses what is no image", async () => {
    const file = await solid(40, 30);
    expect((await codexImage(file, { original: false })).data.equals(file)).toBe(true);
    const gif = await codexImage(await solid(5, 5, "gif"), { original: false });
    expect(gif.mimeType).toBe("image/png");
    const jpeg = await codexImage(await solid(3000, 2000, "jpeg"), { original: false });
    expect([jpeg.mimeType, await dims(jpeg.data)]).toEqual(["image/jpeg", "1920x1280"]);
    await expect(codexImage(Buffer.from("not an image\n"), { original: false })).rejects.toThrow(
      "invalid or unsupported image data",
    );
  });

  it("view_image answers failures with Codex's texts", async () => {
    const { cwd, run } = harnessWorkspace(codexHarness, { prefix: "oi-vi-" });
    writeFileAt(cwd, "notes.txt", "alpha\n");
    mkdirSync(path.join(cwd, "pics"));
    expect(await run("view_image", { path: "missing.png" })).toEqual({
      output: `unable to locate image at \`${path.join(cwd, "missing.png")}\`: No such file or directory (os error 2)`,
      isError: true,
    });
    expect((await run("view_image", { path: "pics" })).output).toBe(
      `image path \`${path.join(cwd, "pics")}\` is not a file`,
    );
    expect((await run("view_image", { path: "notes.txt" })).output).toBe(
      "unable to process image: invalid or unsupported image data",
    );
    expect((await run("view_image", { path: "notes.txt", detail: "low" })).output).toBe(
      "view_image.detail only supports `high` or `original`; omit `detail` for default high resized behavior, got `low`",
    );
  });
});

describe("Kimi Code 2.1.0 ReadMediaFile", () => {
  it("sends a small image untouched and a large one within 2000 px and 262 144 bytes", async () => {
    const small = await solid(2, 2);
    expect(await kimiImage(small, "image/png")).toMatchObject({ delivery: "untouched", width: 2, height: 2 });
    const big = await kimiImage(await noise(2400, 1800), "image/png");
    expect(big.delivery).toBe("downsampled");
    expect(big.data.length).toBeLessThanOrEqual(262_144);
    expect(Math.max(big.width, big.height)).toBeLessThanOrEqual(2000);
    expect(big.original).toEqual({ width: 2400, height: 1800 });
  });

  it("crops a region at native resolution with Kimi's note, and refuses regions outside the image", async () => {
    const { cwd, run } = harnessWorkspace(kimiCodeHarness, { prefix: "oi-rmf-" });
    writeFileAt(cwd, "big.png", await solid(400, 300));
    const crop = await run("ReadMediaFile", {
      path: "big.png",
      region: { x: 10, y: 20, width: 100, height: 50 },
    });
    expect(await dims(image(crop.parts).data)).toBe("100x50");
    expect(crop.parts?.at(-1)).toEqual({
      type: "text",
      text:
        "<system>Read image file. Mime type: image/png. Size: " +
        `${(await solid(400, 300)).length} bytes. Original dimensions: 400x300 pixels. Showing region (x=10, y=20, width=100, height=50) of the original image at native resolution. To output coordinates in original-image pixels, locate them within this crop and add the region offset (x=10, y=20). If you generate or edit images or videos via commands or scripts, read the result back immediately before continuing.</system>`,
    });
    const outside = await run("ReadMediaFile", {
      path: "big.png",
      region: { x: 500, y: 5, width: 10, height: 10 },
    });
    expect(outside).toEqual({
      output:
        'Cannot read region from "big.png": Region (x=500, y=5, width=10, height=10) lies outside the 400x300 image.',
      isError: true,
    });
    const full = await run("ReadMediaFile", { path: "big.png", full_resolution: true });
    expect(full.parts?.at(-1)).toMatchObject({
      text: expect.stringContaining("Shown at native resolution; no downscaling applied."),
    });
  });

  it("answers what is not an image with Kimi's texts", async () => {
    const { cwd, run } = harnessWorkspace(kimiCodeHarness, { prefix: "oi-rmf-" });
    writeFileAt(cwd, "notes.txt", "alpha\n");
    writeFileAt(cwd, "big.png", await solid(40, 30));
    writeFileAt(cwd, "fake.png", "this is text\n");
    writeFileAt(
      cwd,
      "clip.mp4",
      Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from("ftypisom\0\0\0\0")]),
    );
    expect((await run("ReadMediaFile", { path: "notes.txt" })).output).toBe(
      '"notes.txt" is a text file. Use Read to read text files.',
    );
    expect((await run("ReadMediaFile", { path: "fake.png" })).output).toBe(
      '"fake.png" is not a supported image or video file. Use Read for text files, or Bash or an MCP tool for other binary formats.',
    );
    expect((await run("ReadMediaFile", { path: "missing.png" })).output).toBe(
      "Failed to read missing.png: read failed: path does not exist",
    );
    expect((await run("ReadMediaFile", { path: "." })).output).toBe(
      "Failed to read .: read failed: path is a directory",
    );
    expect((await run("ReadMediaFile", { path: "clip.mp4" })).output).toBe(
      "The current model does not support video input. Tell the user to use a model with video input capability.",
    );
    expect((await run("Read", { path: "big.png" })).output).toBe(
      '"big.png" is an image file. Only text files can be read; use ReadMediaFile for image and video files.',
    );
  });
});

describe("Claude Code 2.1.44 Read of an image", () => {
  it("passes a small file through, sends a non-image under its name raw, and fits a large one", async () => {
    const tiny = await solid(4, 3);
    const sent = await claudeImage(tiny);
    expect([sent.mimeType, sent.data.equals(tiny)]).toEqual(["image/png", true]);
    const fake = await claudeImage(Buffer.from("not a png\n"));
    expect([fake.mimeType, fake.data.toString()]).toEqual(["image/png", "not a png\n"]);
    expect(await dims((await claudeImage(await solid(2400, 1200))).data)).toBe("2000x1000");
  });

  it("compresses an image whose base64 would cost over 25 000 tokens to 150 000 bytes or less", async () => {
    const file = await noise(900, 800);
    expect(Math.ceil(file.toString("base64").length / 8)).toBeGreaterThan(25_000);
    const sent = await claudeImage(file);
    expect(sent.data.length).toBeLessThanOrEqual(150_000);
  });

  it("answers a missing or empty image and a model without image input in plain text", async () => {
    const { cwd, run } = harnessWorkspace(claudeCodeHarness, { prefix: "oi-cc-img-" });
    const empty = writeFileAt(cwd, "empty.png", "");
    expect(await run("Read", { file_path: path.join(cwd, "gone.png") })).toEqual({
      output: "File does not exist.",
      isError: true,
    });
    expect(await run("Read", { file_path: empty })).toEqual({
      output: `Image file is empty: ${empty}`,
      isError: true,
    });
    const textOnly = harnessWorkspace(claudeCodeHarness, {
      prefix: "oi-cc-img-",
      context: { images: false },
    });
    const pic = writeFileAt(textOnly.cwd, "a.png", await solid(2, 2));
    const refused = await textOnly.run("Read", { file_path: pic });
    expect(refused.isError).toBe(true);
    expect(refused.output).toContain("the current model does not accept images");
    expect(refused.parts).toBeUndefined();
  });
});

describe("Gemini CLI 0.61 read_file of an image", () => {
  it("sends the file's bytes after 0.61's binary-content text", async () => {
    const { cwd, run } = harnessWorkspace(geminiCliHarness, { prefix: "oi-gem-img-" });
    const file = await solid(6, 4);
    writeFileAt(cwd, "a.png", file);
    const result = await run("read_file", { file_path: "a.png" });
    expect(result.parts).toEqual([
      { type: "text", text: "Binary content provided (1 item(s))." },
      { type: "image", mimeType: "image/png", data: file.toString("base64") },
    ]);
  });
});

describe("token estimates", () => {
  it("count an image as a fixed cost, not by its base64 length", () => {
    const request = (data: string) => ({
      system: [],
      tools: [],
      messages: [
        {
          role: "tool" as const,
          callId: "c",
          content: [{ type: "image" as const, url: `data:image/png;base64,${data}` }],
        },
      ],
    });
    const small = requestBytes(request("AAAA"));
    expect(requestBytes(request("A".repeat(2_000_000)))).toBe(small);
    expect(small).toBeGreaterThanOrEqual(IMAGE_BYTES);
  });
});

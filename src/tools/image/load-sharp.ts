import type sharp from "sharp";

export type Sharp = typeof sharp;

/**
 * sharp (libvips), loaded on first use: a native addon never belongs in the start-up snapshot,
 * and most sessions never look at an image. Node caches the module after the first call.
 */
export async function loadSharp(): Promise<Sharp> {
  const loaded = (await import("sharp")) as unknown as { default?: Sharp } & Sharp;
  return loaded.default ?? loaded;
}

import { KIMI_BYTE_BUDGET, KIMI_MAX_EDGE, kimiByteSize } from "../../tools/image/kimi-image.js";

/**
 * The texts of Kimi Code 2.1.0's ReadMediaFile (`readMediaFileTool.ts`): the `<system>` note
 * after the image and the errors it answers with, word for word.
 */

/** How the image was sent, for the note. */
export type Delivery =
  | { kind: "downsampled"; width: number; height: number; mimeType: string; bytes: number }
  | { kind: "untouched" }
  | { kind: "full" }
  | {
      kind: "crop";
      region: { x: number; y: number; width: number; height: number };
      resized?: { width: number; height: number };
    };

export function mediaNote(o: {
  mimeType: string;
  bytes: number;
  dimensions?: { width: number; height: number };
  delivery: Delivery;
}): string {
  const parts = ["Read image file.", `Mime type: ${o.mimeType}.`, `Size: ${o.bytes} bytes.`];
  if (o.dimensions) parts.push(`Original dimensions: ${o.dimensions.width}x${o.dimensions.height} pixels.`);
  const d = o.delivery;
  if (d.kind === "downsampled") {
    parts.push(
      `The attached image was downsampled to ${d.width}x${d.height} pixels (${d.mimeType}, ${kimiByteSize(d.bytes)}) to fit model limits; fine detail may be lost.`,
      "To inspect fine detail, call ReadMediaFile again with the region parameter (original-image pixel coordinates) to view a crop at full fidelity.",
    );
  } else if (d.kind === "crop") {
    const { x, y, width, height } = d.region;
    const how = d.resized
      ? `, downsampled to ${d.resized.width}x${d.resized.height} pixels`
      : " at native resolution";
    parts.push(
      `Showing region (x=${x}, y=${y}, width=${width}, height=${height}) of the original image${how}.`,
      `To output coordinates in original-image pixels, locate them within this crop and add the region offset (x=${x}, y=${y}).`,
    );
  } else if (d.kind === "full") {
    parts.push("Shown at native resolution; no downscaling applied.");
  }
  if (o.dimensions && d.kind !== "crop") {
    parts.push(
      "If you need to output coordinates, output relative coordinates first and compute absolute coordinates using the original image size.",
    );
  }
  parts.push(
    "If you generate or edit images or videos via commands or scripts, read the result back immediately before continuing.",
  );
  return `<system>${parts.join(" ")}</system>`;
}

export const NO_VIDEO_INPUT =
  "The current model does not support video input. Tell the user to use a model with video input capability.";

export function deliveryLimitError(finalBytes: number): string {
  return `Image is too large to send safely after compression (${finalBytes} bytes; limit ${KIMI_BYTE_BUDGET} bytes and ${KIMI_MAX_EDGE}px on the longest edge). The original image was not sent to the model. Do not retry the same file unchanged. Use Bash or an available image-processing tool to create a smaller copy within both limits, then call ReadMediaFile on the smaller copy.`;
}

export function decodeLimitError(finalBytes: number, limit: number): string {
  return `Image is too large to process safely for region or full_resolution (${finalBytes} bytes; safe decode limit ${limit} bytes). The original image was not sent to the model. Do not retry the same file unchanged. Use Bash or an available image-processing tool to create a smaller copy or crop the needed region into a separate image, then call ReadMediaFile on the resulting file.`;
}

export function fullResolutionLimitError(path: string, finalBytes: number, budget: number): string {
  return `"${path}" is ${finalBytes} bytes (${kimiByteSize(finalBytes)}), over the ${budget}-byte (${kimiByteSize(budget)}) per-image limit, so full_resolution cannot be honored. Use region to view a crop at full fidelity instead.`;
}

/** The conversion hint for a format the provider does not take, for this machine's system. */
export function conversionGuidance(
  path: string,
  mimeType: string,
  oversized?: { bytes: number; limit: number },
): string {
  const converted = `${path.replace(/\.[^./\\]+$/, "")}.jpg`;
  const magick = `magick "${path}" "${converted}"`;
  const heif = mimeType === "image/heic" || mimeType === "image/heif";
  const command =
    process.platform === "darwin"
      ? `On macOS: sips -s format jpeg "${path}" --out "${converted}"`
      : process.platform === "win32"
        ? `On Windows, with ImageMagick: ${magick} (install it first if missing: winget install ImageMagick.ImageMagick)`
        : heif
          ? `On Linux: heif-convert "${path}" "${converted}" (package libheif-examples), or with ImageMagick: ${magick}`
          : `On Linux, with ImageMagick: ${magick}`;
  const lead = oversized
    ? `"${path}" is a ${oversized.bytes}-byte ${mimeType} image, over the ${oversized.limit}-byte per-image limit, and this format cannot be downsampled locally.`
    : `"${path}" is an ${mimeType} image, which the provider does not accept.`;
  return `${lead} Convert it to JPEG first, then read the converted file. ${command}`;
}

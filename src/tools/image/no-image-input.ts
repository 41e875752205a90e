/**
 * What an image-reading tool answers a model that takes no images (config
 * `model_supports_images = false`) where its original has no text of its own for that case.
 */
export function noImageInput(file: string): string {
  return `${file} is an image, and the current model does not accept images, so it cannot be shown. Tell the user, or use a tool that reads the file as text or data.`;
}

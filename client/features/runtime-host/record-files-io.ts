import type { UploadSent } from '../../sync/visitor-data/record-files';

/*
 * What keeping and sending a photo or file takes (record-files-host.ts): its own chunk, loaded the
 * first time a person picks one or this device has one to send, so an app's first visit does not
 * carry it.
 */

/** The thumbnail a device makes of a photo it keeps: what its lists and galleries show. */
const THUMBNAIL_SIDE_PX = 320;

const NOT_AN_IMAGE =
  'That file isn’t an image we can read. Choose a photo (PNG, JPEG, WebP or GIF).';
export const DEVICE_FULL =
  'This device has no room left to keep that. Free some space on it, then try again.';

/**
 * Decodes a picked photo (what cannot be decoded is refused here, before anything is kept) and
 * makes its thumbnail; null for the thumbnail when this browser cannot make one (the photo itself
 * then shows in lists).
 */
export async function readPhoto(blob: Blob): Promise<{ thumbnail: Blob | null }> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(blob);
  } catch {
    throw new Error(NOT_AN_IMAGE);
  }
  try {
    const scale = Math.min(1, THUMBNAIL_SIDE_PX / Math.max(bitmap.width, bitmap.height));
    const width = Math.max(1, Math.round(bitmap.width * scale));
    const height = Math.max(1, Math.round(bitmap.height * scale));
    if (typeof OffscreenCanvas === 'undefined') return { thumbnail: null };
    const canvas = new OffscreenCanvas(width, height);
    canvas.getContext('2d')?.drawImage(bitmap, 0, 0, width, height);
    return { thumbnail: await canvas.convertToBlob({ type: 'image/webp', quality: 0.7 }) };
  } catch {
    return { thumbnail: null };
  } finally {
    bitmap.close();
  }
}

/** Sends one kept file (`PUT …/files/{hash}`) and says what came of it. */
export async function sendFile(
  path: string,
  kind: 'image' | 'file',
  blob: Blob,
): Promise<UploadSent> {
  let response: Response;
  try {
    response = await fetch(`${path}?kind=${kind}`, {
      method: 'PUT',
      credentials: 'same-origin',
      headers: { 'Content-Type': blob.type || 'application/octet-stream' },
      body: blob,
    });
  } catch {
    return { status: 'later' };
  }
  if (response.ok) return { status: 'done' };
  // Signed out, too many at once, the server unwell: sent again later.
  if ([401, 408, 429].includes(response.status) || response.status >= 500) {
    return { status: 'later' };
  }
  // The error's message read by hand: the API's classic-zod error schema would bring all of zod to
  // the installed app's first visit (docs/decisions/0003-zod-mini-on-the-installed-app.md).
  const body = (await response.json().catch(() => null)) as {
    error?: { message?: unknown };
  } | null;
  const message = body?.error?.message;
  return {
    status: 'refused',
    problem:
      typeof message === 'string' && message
        ? message.slice(0, 500)
        : `The server answered ${response.status}.`,
  };
}

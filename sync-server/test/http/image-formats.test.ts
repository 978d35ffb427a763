import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { type ApiClient, errorCode } from '../support/api-client';
import { type AccountsHarness, startAccountsServer } from '../support/engines';
import { importFile, pipitFileWithImages, pngImage, uploadImage } from '../support/portable';
import { createApp, definitionOf } from '../support/publishing';

const SVG = new TextEncoder().encode(
  '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64" fill="red"/><script>alert(1)</script></svg>',
);

/**
 * A WebP as a Pipit server writes it (one `VP8 ` chunk), with an `HTML` chunk added inside its
 * RIFF container and the container's length set to match: it reads as a WebP of one frame without
 * metadata, ending where its header says.
 */
async function webpWithHtmlChunk(): Promise<{ bytes: Uint8Array; html: Buffer }> {
  const webp = await sharp(await pngImage(48, 32, '#336699'))
    .webp({ quality: 82 })
    .toBuffer();
  const html = Buffer.from('<html><script>alert(document.cookie)</script></html>');
  const size = Buffer.alloc(4);
  size.writeUInt32LE(html.length);
  const bytes = Buffer.concat([webp, Buffer.from('HTML'), size, html]);
  bytes.writeUInt32LE(bytes.length - 8, 4);
  return { bytes: new Uint8Array(bytes), html };
}

/**
 * An image is what its bytes are, not what it is called, and an imported image
 * keeps only its pixels.
 */
describe('what an image is, and what of it is kept', () => {
  let h: AccountsHarness;
  let ada: ApiClient;
  let appId: string;
  const storage = () => h.pipit.server.storage;
  const appCount = async () => (await ada.get<{ apps: unknown[] }>('/api/apps')).body.apps.length;

  beforeAll(async () => {
    h = await startAccountsServer('sqlite');
    ada = await h.signup('ada_formats');
    appId = await createApp(h, ada, definitionOf({ title: 'Formats' }));
  });
  afterAll(() => h.close());

  it('refuses an SVG, or a TIFF, sent as a PNG, from what the bytes are', async () => {
    const tiff = new Uint8Array(
      await sharp(await pngImage(8, 8, '#ff0000'))
        .tiff()
        .toBuffer(),
    );
    for (const bytes of [SVG, tiff]) {
      const upload = await uploadImage(ada, appId, bytes, 'image/png');
      expect([upload.status, errorCode(upload)]).toEqual([415, 'unsupported_media_type']);
      expect(upload.body.error?.message).toBe(
        'That file is not a PNG, JPEG, WebP or GIF image, whatever its name or type says. Upload a PNG, JPEG, WebP or GIF image.',
      );
    }
    expect(await storage().uploads.idsForApp(appId)).toEqual([]);

    // In a file, called image/png there too: the whole file is refused, nothing is made.
    const imported = await importFile(
      ada,
      pipitFileWithImages([{ bytes: SVG, contentType: 'image/png' }]),
    );
    expect([imported.status, errorCode(imported)]).toEqual([400, 'validation_failed']);
    expect(imported.body.error?.message).toBe(
      // Named as the person knows it: which image of which app.
      'Image 1 of the app “Pictures” is not a PNG, JPEG, WebP or GIF, the only images Pipit takes.',
    );
    expect(await appCount()).toBe(1);
  });

  it('encodes every imported image again: a chunk inside a WebP is not kept', async () => {
    const { bytes, html } = await webpWithHtmlChunk();
    expect((await sharp(bytes).metadata()).format).toBe('webp');
    const imported = await importFile(
      ada,
      pipitFileWithImages([{ bytes, contentType: 'image/webp' }]),
    );
    expect(imported.status).toBe(201);
    const [stored] = await storage().uploads.idsForApp(imported.body.apps[0]!.id);
    const kept = (await storage().uploads.get(stored!))!;
    expect(kept.contentType).toBe('image/webp');
    expect(Buffer.from(kept.bytes).includes(html)).toBe(false);
    expect(Buffer.from(kept.bytes).includes(Buffer.from('HTML'))).toBe(false);
    // Only the image is there: one chunk of pixels, as every upload is stored.
    const view = new DataView(kept.bytes.buffer, kept.bytes.byteOffset, kept.bytes.byteLength);
    expect(Buffer.from(kept.bytes).subarray(12, 16).toString('latin1')).toMatch(/^VP8[ L]$/);
    const chunk = view.getUint32(16, true);
    expect(20 + chunk + (chunk % 2)).toBe(kept.bytes.byteLength);
    expect(view.getUint32(4, true)).toBe(kept.bytes.byteLength - 8);
    expect(await sharp(kept.bytes).metadata()).toMatchObject({ width: 48, height: 32 });
  });
});

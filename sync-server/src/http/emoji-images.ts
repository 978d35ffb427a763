import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { emojiOfImagePath } from '@pipit/protocol';
import type { Logger } from '../logger';
import { Lru } from '../lru';
import { twemojiFile, twemojiVersion } from '../pwa/twemoji';
import { keepUnlessFailed } from '../read-once';
import { preferredEncoding } from './security-headers';

/**
 * `/emoji/{code points}.svg`: an app's emoji icon as a picture, for pages, lists and the editor.
 * The artwork is the Twemoji file the installed app's manifest icons are
 * drawn from (pwa/twemoji.ts, the same choice of file), so an app has one face everywhere, also on
 * a device without a colour-emoji font; served by Pipit itself (no CDN) so the service worker
 * keeps it for offline use (client/sw.ts). An emoji Twemoji has no picture for answers 404 and
 * the page shows the emoji as text.
 */

/**
 * A week: the picture of a path changes only when the server's Twemoji package does. Not
 * `immutable`: a newer package may draw an emoji it had no picture for, or draw it better.
 */
const EMOJI_CACHE = 'public, max-age=604800';
/** Browsers ask again for one with no picture a day later. */
const NO_PICTURE_CACHE = 'public, max-age=86400';
/** About 4 KB a picture with its compressed forms: a few megabytes at most. */
const FILES_KEPT = 512;

interface EmojiPicture {
  etag: string;
  identity: Buffer;
  gzip: Buffer;
  br: Buffer;
}

export function createEmojiImages(options: { logger: Logger }) {
  const pictures = new Lru<string, Promise<EmojiPicture>>(FILES_KEPT);
  let version: string | undefined;

  function pictureOf(name: string, file: string): Promise<EmojiPicture> {
    return keepUnlessFailed(pictures, name, async () => {
      const identity = await readFile(file);
      version ??= twemojiVersion();
      const digest = createHash('sha256').update(identity).digest('base64url').slice(0, 16);
      const [gzip, br] = await Promise.all([
        promisify(zlib.gzip)(identity),
        promisify(zlib.brotliCompress)(identity),
      ]);
      return { etag: `"${version}-${digest}"`, identity, gzip, br };
    });
  }

  function notFound(res: ServerResponse, cache: string): void {
    res.writeHead(404, {
      'Content-Type': 'text/plain; charset=utf-8',
      'Cache-Control': cache,
    });
    res.end('Not found');
  }

  return (req: IncomingMessage, res: ServerResponse): void => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Method not allowed');
      return;
    }
    const pathname = (req.url ?? '/').split('?')[0] ?? '/';
    const emoji = emojiOfImagePath(pathname);
    const found = emoji === null ? null : twemojiFile(emoji);
    if (!found) {
      notFound(res, emoji === null ? 'no-cache' : NO_PICTURE_CACHE);
      return;
    }
    pictureOf(found.name, found.file).then(
      (picture) => {
        const headers = {
          'Cache-Control': EMOJI_CACHE,
          ETag: picture.etag,
          Vary: 'Accept-Encoding',
          'Cross-Origin-Resource-Policy': 'same-origin',
        };
        if (req.headers['if-none-match'] === picture.etag) {
          res.writeHead(304, headers).end();
          return;
        }
        const encoding = preferredEncoding(req.headers['accept-encoding']);
        const body = encoding ? picture[encoding] : picture.identity;
        res.writeHead(200, {
          ...headers,
          'Content-Type': 'image/svg+xml',
          'Content-Length': body.length,
          ...(encoding ? { 'Content-Encoding': encoding } : {}),
        });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      (error: unknown) => {
        options.logger.error({ err: error, path: pathname }, 'cannot read an emoji picture');
        if (!res.headersSent) {
          res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
        }
        res.end('Something went wrong on the server.');
      },
    );
  };
}

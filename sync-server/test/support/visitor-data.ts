import { type Collection, createVisitorRecords, readVisitorData } from '@pipit/app-definition';
import { documentName } from '@pipit/protocol';
import { acknowledged, connectProvider } from './provider';

/**
 * Opens a visitor's data document (`data/{appId}/{userId}`) over a real websocket with someone's
 * session cookie, as a browser would, and reports whether the server let them in and how many
 * records they received.
 */
export async function readDataDocumentAs(
  url: string,
  document: { appId: string; userId: string },
  cookie: string | null,
): Promise<{ opened: boolean; records: number }> {
  const side = connectProvider({
    url,
    name: documentName({ kind: 'data', ...document }),
    cookie,
  });
  try {
    const opened = await side.ready;
    return { opened, records: readVisitorData(side.doc).records.length };
  } finally {
    side.destroy();
  }
}

/**
 * Opens a shared space's document (`space/{spaceId}`) over a real websocket with someone's session
 * cookie, and reports whether the server let them in and how many records they received.
 */
export async function readSpaceDocumentAs(
  url: string,
  spaceId: string,
  cookie: string | null,
): Promise<{ opened: boolean; records: number }> {
  const side = connectProvider({ url, name: documentName({ kind: 'space', spaceId }), cookie });
  try {
    const opened = await side.ready;
    return { opened, records: readVisitorData(side.doc).records.length };
  } finally {
    side.destroy();
  }
}

/**
 * Writes records into a visitor's data document (`data/{appId}/{userId}`) over a real websocket
 * with their session cookie, as their device would send them: in batches of 500 the server
 * acknowledges one by one, each record a millisecond newer than the one before.
 */
export async function writeDataDocumentAs(
  url: string,
  document: { appId: string; userId: string },
  cookie: string | null,
  collection: Collection,
  rows: readonly Readonly<Record<string, unknown>>[],
): Promise<void> {
  const name = documentName({ kind: 'data', ...document });
  const side = connectProvider({ url, name, cookie });
  try {
    if (!(await side.ready)) throw new Error(`the server refused the document ${name}`);
    const now = Date.now() - rows.length;
    for (let start = 0; start < rows.length; start += 500) {
      createVisitorRecords(side.doc, collection, rows.slice(start, start + 500), {
        now: now + start,
      });
      await acknowledged(side.provider);
    }
  } finally {
    side.destroy();
    side.doc.destroy();
  }
}

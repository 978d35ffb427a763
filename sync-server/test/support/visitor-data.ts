import { readVisitorData } from '@pipit/app-definition';
import { documentName } from '@pipit/protocol';
import { connectProvider } from './provider';

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

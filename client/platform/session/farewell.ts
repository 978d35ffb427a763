/**
 * A word for the landing page after an account is deleted: deleting signs the person out
 * and opens `/`, which otherwise said nothing. The note lives in this tab's session storage and is
 * read once, so a reload or a later visit does not repeat it. The landing page is pre-rendered, so
 * it reads the note after hydration.
 */
const KEY = 'pipit:account-deleted';

type NoteStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

function tabStorage(): NoteStorage | undefined {
  try {
    return globalThis.sessionStorage;
  } catch {
    // Storage can be refused (private modes, policies): then there is simply no note.
    return undefined;
  }
}

/** Leaves the note for the next page this tab opens. */
export function noteAccountDeleted(storage: NoteStorage | undefined = tabStorage()): void {
  try {
    storage?.setItem(KEY, '1');
  } catch {
    // A full or refused storage loses the note, not the deletion.
  }
}

/** Whether an account was just deleted in this tab; reading the note removes it. */
export function takeAccountDeletedNote(storage: NoteStorage | undefined = tabStorage()): boolean {
  try {
    const noted = storage?.getItem(KEY) != null;
    if (noted) storage?.removeItem(KEY);
    return noted;
  } catch {
    return false;
  }
}

let seen: boolean | undefined;
/**
 * The note as this page load saw it: taken from storage the first time, then the same answer while
 * the page stays open (a stable snapshot for `useSyncExternalStore`; a reload no longer has it).
 */
export function accountDeletedThisVisit(): boolean {
  seen ??= takeAccountDeletedNote();
  return seen;
}

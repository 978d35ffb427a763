/*
 * Apart from document/operations.ts so that what reads and keeps visitor data (the runtime, the
 * installed app's page) does not load the definition's schemas with it.
 */

/**
 * Every edit this device makes runs in a transaction with this origin, so an UndoManager that
 * tracks it undoes this person's edits and never a collaborator's (which arrive with the
 * provider's origin).
 */
export const LOCAL_EDIT = { source: 'pipit-local-edit' } as const;

/**
 * An edit that would break a rule of docs/product/app-definition.md (a limit, a missing parent).
 * Nothing changed.
 */
export class DefinitionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DefinitionError';
  }
}

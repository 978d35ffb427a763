import { DefinitionError } from '@pipit/app-definition';
import { genericErrorMessage } from '@pipit/protocol';

/**
 * What the editor says when an edit fails. A rule of the definition (a limit, something gone, a
 * read-only app) is the person's to act on, in its own words; anything else is a bug, which the
 * person sees as the generic error while it goes to error reporting.
 */
export function editProblem(error: unknown, host: string): { message: string; isBug: boolean } {
  if (error instanceof DefinitionError) return { message: error.message, isBug: false };
  return { message: genericErrorMessage(host), isBug: true };
}

import { useCallback, useState } from 'react';
import { describeError } from './request';

export interface SubmitState {
  pending: boolean;
  /** What went wrong, in the server's words (or the offline message). */
  error: string | null;
  /** Field → what is wrong with it, for the form's inputs. */
  fields: Record<string, string>;
}

/**
 * Runs a form's request: one at a time, with its pending state and the error a person should
 * see. Resolves with the result, or undefined when it failed (the state says why).
 */
export function useSubmit<A extends unknown[], R>(action: (...args: A) => Promise<R>) {
  const [state, setState] = useState<SubmitState>({ pending: false, error: null, fields: {} });
  const submit = useCallback(
    async (...args: A): Promise<R | undefined> => {
      setState({ pending: true, error: null, fields: {} });
      try {
        const result = await action(...args);
        setState({ pending: false, error: null, fields: {} });
        return result;
      } catch (error) {
        const { message, fields } = describeError(error);
        setState({ pending: false, error: message, fields });
        return undefined;
      }
    },
    [action],
  );
  const reset = useCallback(() => setState({ pending: false, error: null, fields: {} }), []);
  return { ...state, submit, reset };
}

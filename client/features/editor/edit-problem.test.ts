import { DefinitionError } from '@pipit/app-definition';
import { describe, expect, it } from 'vitest';
import { editProblem } from './edit-problem';

describe('what the editor says when an edit fails', () => {
  it('shows a rule of the definition in its own words', () => {
    expect(editProblem(new DefinitionError('Use at most 50 screens.'), 'pipit.test')).toEqual({
      message: 'Use at most 50 screens.',
      isBug: false,
    });
  });

  it('shows anything else as the generic error, as a bug to report, never its message', () => {
    for (const error of [
      new TypeError("Cannot read properties of undefined (reading 'get')"),
      new Error('Internal detail'),
      'a thrown string',
    ]) {
      const problem = editProblem(error, 'pipit.test');
      expect(problem.isBug).toBe(true);
      expect(problem.message).toMatch(/^Application error: .* while loading pipit\.test /);
      expect(problem.message).not.toContain('Internal detail');
    }
  });
});

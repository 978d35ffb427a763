import { describe, expect, it } from 'vitest';
import { deletionProblems } from './delete-checks';

describe('deleting an account asks for the password and the tick first', () => {
  it('names each missing part', () => {
    expect(deletionProblems('', false)).toEqual({
      password: 'Enter your password to confirm.',
      confirm: 'Tick the box to confirm you understand.',
    });
    expect(deletionProblems('secret', false)).toEqual({
      confirm: 'Tick the box to confirm you understand.',
    });
    expect(deletionProblems('', true)).toEqual({ password: 'Enter your password to confirm.' });
  });

  it('has nothing to say when both are there', () => {
    expect(deletionProblems('secret', true)).toEqual({});
  });
});

/** What the deletion form needs before it asks the server (an empty form said nothing). */
export interface DeletionProblems {
  password?: string;
  confirm?: string;
}

export function deletionProblems(password: string, confirmed: boolean): DeletionProblems {
  const problems: DeletionProblems = {};
  if (password === '') problems.password = 'Enter your password to confirm.';
  if (!confirmed) problems.confirm = 'Tick the box to confirm you understand.';
  return problems;
}

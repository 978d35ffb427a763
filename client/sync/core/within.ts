/** What `promise` resolves with if it does within `ms`; undefined otherwise. */
export async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(resolve, Math.max(0, ms))));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

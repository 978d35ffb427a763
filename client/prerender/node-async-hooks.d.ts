// The renderer runs in Node (`vite build --ssr`), but the client's type check has no Node types
// (they would change the browser's timers and globals): the one Node API it uses, declared.
declare module 'node:async_hooks' {
  export class AsyncLocalStorage<T> {
    run<R>(store: T, callback: () => R): R;
    getStore(): T | undefined;
  }
}

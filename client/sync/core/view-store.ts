/**
 * A value React reads with `useSyncExternalStore`: the subclass computes its view, `publish` replaces
 * it and tells every subscriber. The document stores (app-document/app-document.ts, visitor-data/document-store.ts) and
 * a first visit's store of a visitor's data (visitor-data.ts) build on it.
 */
export class ViewStore<V> {
  /** Set by the subclass's constructor, once what it computes from is in place. */
  protected view!: V;
  private readonly listeners = new Set<() => void>();

  protected publish(next: V): void {
    this.view = next;
    this.listeners.forEach((listener) => listener());
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  readonly getView = (): V => this.view;
}

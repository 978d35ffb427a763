import { Component, type ReactNode } from 'react';
import { InvalidPlaceholder } from './invalid-placeholder';

interface Props {
  /** A new value (the component's definition changed) clears a caught error. */
  resetKey: unknown;
  children: ReactNode;
}

interface State {
  failed: boolean;
  resetKey: unknown;
}

/** One component's render exception shows its placeholder; the rest of the screen still renders. */
export class ComponentErrorBoundary extends Component<Props, State> {
  override state: State = { failed: false, resetKey: this.props.resetKey };

  static getDerivedStateFromError(): Partial<State> {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey === state.resetKey ? null : { failed: false, resetKey: props.resetKey };
  }

  override render() {
    return this.state.failed ? (
      <InvalidPlaceholder problem="it failed to render." />
    ) : (
      this.props.children
    );
  }
}

import { useEffect, useRef } from 'react';

/**
 * The newest value of something a collaborator may change while the person's decision waits on
 * the network (the app, a draft): read when the answer comes back, not as it was when asked.
 */
export function useLatest<T>(value: T) {
  const ref = useRef(value);
  useEffect(() => {
    ref.current = value;
  });
  return ref;
}

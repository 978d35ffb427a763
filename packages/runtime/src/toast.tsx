import { useCallback, useEffect, useState } from 'react';
import type { ToastLink } from './actions';
import { host } from './host';
import { SafeLink } from './safe-link';

const TOAST_MIN_MS = 4_000;
const TOAST_MAX_MS = 10_000;
/** Longer messages stay longer: roughly reading speed. */
const TOAST_MS_PER_CHARACTER = 50;

export interface Toast {
  id: number;
  text: string;
  link?: ToastLink | undefined;
}

/** One message at a time; a new one replaces the last. The timer runs only while one shows. */
export function useToast(): [Toast | null, (text: string, link?: ToastLink) => void] {
  const [toast, setToast] = useState<Toast | null>(null);
  useEffect(() => {
    if (!toast) return;
    const ms = Math.min(TOAST_MAX_MS, TOAST_MIN_MS + toast.text.length * TOAST_MS_PER_CHARACTER);
    const id = host.setTimeout(() => setToast(null), ms);
    return () => host.clearTimeout(id);
  }, [toast]);
  const show = useCallback(
    (text: string, link?: ToastLink) =>
      setToast((last) => ({ id: (last?.id ?? 0) + 1, text, link })),
    [],
  );
  return [toast, show];
}

/**
 * Always in the page, so screen readers announce what is put in it (a live region added together
 * with its text is often not read).
 */
export function ToastRegion({ toast }: { toast: Toast | null }) {
  return (
    <div className="rt-toast-region" role="status" aria-live="polite" aria-atomic="true">
      {toast && (
        <p key={toast.id} className="rt-toast">
          {toast.text}
          {toast.link && (
            <>
              {' '}
              <SafeLink url={toast.link.href}>{toast.link.label}</SafeLink>
            </>
          )}
        </p>
      )}
    </div>
  );
}

/** What a data component shows until it is pointed at a collection (or fields). */
export function SetupNote({ children }: { children: string }) {
  return <p className="rt-card rt-muted rt-setup-note">{children}</p>;
}

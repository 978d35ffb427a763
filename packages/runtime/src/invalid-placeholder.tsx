/** "This kind…" reads as "…could not be shown: this kind…"; "AI …" keeps its capitals. */
function continueSentence(problem: string): string {
  return /^[A-Z][a-z]/.test(problem) ? problem[0]?.toLowerCase() + problem.slice(1) : problem;
}

/**
 * Shown instead of a component that cannot be read or that failed to render
 * (docs/product/app-definition.md).
 */
export function InvalidPlaceholder({
  problem,
  originalType,
}: {
  problem: string;
  originalType?: string;
}) {
  return (
    <div className="rt-invalid" role="note">
      <span aria-hidden="true">⚠️ </span>
      This component could not be shown: {continueSentence(problem)}
      {originalType && <span className="rt-invalid-type"> (type “{originalType}”)</span>}
    </div>
  );
}

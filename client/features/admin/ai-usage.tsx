import { type AiUsageRow, aiUsageResponseSchema, groupedCount } from '@pipit/protocol';
import { EmptyState } from '../../ui/empty-state';
import { Loading } from '../../ui/loading';
import { Notice } from '../../ui/notice';
import { Section } from '../../ui/page';
import { TableScroll } from '../../ui/prose';
import { useApiGet } from '../../platform/api/use-api-get';

/**
 * AI usage for the operator (docs/product/ai.md, "Usage"): runs and tokens per UTC day and app,
 * for the last 30 days (apps made from a description in a row of their own). Counts only: prompts and answers are never stored.
 */
export function AiUsage() {
  const usage = useApiGet('/api/admin/ai-usage', aiUsageResponseSchema);
  return (
    <Section title="AI usage" id="ai-usage">
      {usage.status === 'loading' ? (
        <Loading label="Loading AI usage…" />
      ) : usage.status === 'error' ? (
        <Notice tone="danger" title="AI usage could not be loaded">
          {usage.message}
        </Notice>
      ) : usage.data.rows.length === 0 ? (
        <EmptyState icon="✨" title="No AI runs yet" level={3}>
          Runs and tokens of apps’ AI actions, Ask AI and apps made from a description show here,
          per day and app, for the last {usage.data.days} days.
        </EmptyState>
      ) : (
        <>
          <p className="inbox__count">
            {totals(usage.data.rows)} in the last {usage.data.days} days (UTC days). Prompts and
            answers are never stored.
          </p>
          <TableScroll label="AI usage per day and app">
            <table className="inbox__table">
              <thead>
                <tr>
                  <th scope="col">Day</th>
                  <th scope="col">App</th>
                  <th scope="col">People</th>
                  <th scope="col">Runs</th>
                  <th scope="col">Prompt tokens</th>
                  <th scope="col">Answer tokens</th>
                </tr>
              </thead>
              <tbody>
                {usage.data.rows.map((row) => (
                  <tr key={`${row.day}/${row.appId}`}>
                    <td>{row.day}</td>
                    <td>{appLabel(row)}</td>
                    <td>{groupedCount(row.people)}</td>
                    <td>{groupedCount(row.runs)}</td>
                    <td>{groupedCount(row.promptTokens)}</td>
                    <td>{groupedCount(row.completionTokens)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </>
      )}
    </Section>
  );
}

/** Apps made from a description have no id when the model is asked: their runs show together. */
function appLabel(row: AiUsageRow): string {
  return row.appId === null ? 'New apps, from a description' : (row.appTitle ?? row.appId);
}

function totals(rows: AiUsageRow[]): string {
  const runs = rows.reduce((sum, r) => sum + r.runs, 0);
  const tokens = rows.reduce((sum, r) => sum + r.promptTokens + r.completionTokens, 0);
  return `${groupedCount(runs)} ${runs === 1 ? 'run' : 'runs'} and ${groupedCount(tokens)} tokens`;
}

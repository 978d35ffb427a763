import type { ComponentProps } from '@pipit/app-definition';
import { barShapes, CHART_HEIGHT, CHART_WIDTH, linePoints, pieSlices } from '../chart-geometry';
import { type ChartPoint, chartSeries, findCollection, formatNumber } from '../records';
import { recordsFor, type RenderContext } from '../render-context';
import { SetupNote } from './setup-note';

const KIND_NAMES = { bar: 'Bar chart', line: 'Line chart', pie: 'Pie chart' } as const;
const PALETTE_SIZE = 6;

/** What the chart says, for people who cannot see it (the SVG's accessible name). */
export function chartSummary(
  kind: ComponentProps<'chart'>['kind'],
  name: string,
  points: ChartPoint[],
): string {
  const values = points.map((p) => `${p.label} ${formatNumber(p.value)}`).join(', ');
  return `${KIND_NAMES[kind]} of ${name}: ${values}`;
}

function shortLabel(label: string, slots: number): string {
  const max = Math.max(3, Math.floor(40 / Math.max(slots, 1)));
  return label.length > max ? `${label.slice(0, max - 1)}…` : label;
}

function Plot({ kind, points }: { kind: ComponentProps<'chart'>['kind']; points: ChartPoint[] }) {
  if (kind === 'pie') {
    return pieSlices(points).map((d, i) =>
      d ? <path key={i} d={d} className={`rt-chart-fill-${i % PALETTE_SIZE}`} /> : null,
    );
  }
  if (kind === 'line') {
    const xy = linePoints(points);
    return (
      <>
        <polyline className="rt-chart-line" points={xy.map((p) => `${p.x},${p.y}`).join(' ')} />
        {xy.map((p, i) => (
          <circle key={i} cx={p.x} cy={p.y} r={3.5} className="rt-chart-dot" />
        ))}
        {xy.map((p, i) => (
          <text key={`l${i}`} x={p.x} y={CHART_HEIGHT - 6} className="rt-chart-label">
            {shortLabel(points[i]?.label ?? '', points.length)}
          </text>
        ))}
      </>
    );
  }
  const bars = barShapes(points);
  return (
    <>
      {bars.map((bar, i) => (
        <rect
          key={i}
          x={bar.x}
          y={bar.y}
          width={bar.width}
          height={bar.height}
          rx={3}
          className="rt-chart-fill-0"
        />
      ))}
      {bars.map((bar, i) => (
        <text key={`l${i}`} x={bar.labelX} y={CHART_HEIGHT - 6} className="rt-chart-label">
          {shortLabel(points[i]?.label ?? '', points.length)}
        </text>
      ))}
    </>
  );
}

export function ChartBlock({
  props,
  context,
}: {
  props: ComponentProps<'chart'>;
  context: RenderContext;
}) {
  const collection = findCollection(context.definition.collections, props.collectionId);
  if (!collection) return <SetupNote>Choose a collection for this chart.</SetupNote>;
  const points = chartSeries(collection, props, recordsFor(context, collection));
  if (points.length === 0)
    return <p className="rt-card rt-muted rt-empty">No data to chart yet.</p>;
  return (
    <figure className="rt-card rt-chart">
      <svg
        className="rt-chart-svg"
        viewBox={`0 0 ${CHART_WIDTH} ${CHART_HEIGHT}`}
        role="img"
        aria-label={chartSummary(props.kind, collection.name, points)}
      >
        <Plot kind={props.kind} points={points} />
      </svg>
      {props.kind === 'pie' && (
        <ul className="rt-chart-legend" aria-hidden="true">
          {points.map((p, i) => (
            <li key={i}>
              <span className={`rt-swatch rt-swatch-${i % PALETTE_SIZE}`} />
              {p.label}: {formatNumber(p.value)}
            </li>
          ))}
        </ul>
      )}
    </figure>
  );
}

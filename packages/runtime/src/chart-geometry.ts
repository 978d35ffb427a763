import type { ChartPoint } from './records';

/** The chart's drawing box in SVG units; the SVG scales to the width it is given. */
export const CHART_WIDTH = 300;
export const CHART_HEIGHT = 160;
const LABEL_BAND = 22;
const TOP_GAP = 8;

export interface BarShape {
  x: number;
  y: number;
  width: number;
  height: number;
  labelX: number;
}

function plotHeight(): number {
  return CHART_HEIGHT - LABEL_BAND - TOP_GAP;
}

function scale(points: ChartPoint[]): number {
  const max = Math.max(0, ...points.map((p) => p.value));
  return max > 0 ? plotHeight() / max : 0;
}

/** Bars side by side; negative values draw as empty bars (charts of counts and sums). */
export function barShapes(points: ChartPoint[]): BarShape[] {
  const slot = CHART_WIDTH / Math.max(points.length, 1);
  const k = scale(points);
  const width = Math.max(slot * 0.62, 2);
  return points.map((p, i) => {
    const height = Math.max(p.value, 0) * k;
    const x = i * slot + (slot - width) / 2;
    return { x, y: TOP_GAP + plotHeight() - height, width, height, labelX: x + width / 2 };
  });
}

export function linePoints(points: ChartPoint[]): Array<{ x: number; y: number }> {
  const k = scale(points);
  const step = points.length > 1 ? (CHART_WIDTH - 20) / (points.length - 1) : 0;
  return points.map((p, i) => ({
    x: points.length > 1 ? 10 + i * step : CHART_WIDTH / 2,
    y: TOP_GAP + plotHeight() - Math.max(p.value, 0) * k,
  }));
}

/** SVG path data of each slice of a pie centred in the box; empty when nothing is positive. */
export function pieSlices(points: ChartPoint[]): string[] {
  const total = points.reduce((s, p) => s + Math.max(p.value, 0), 0);
  if (total <= 0) return [];
  const r = CHART_HEIGHT / 2 - 6;
  const cx = CHART_WIDTH / 2;
  const cy = CHART_HEIGHT / 2;
  let angle = -Math.PI / 2;
  const at = (a: number) =>
    `${(cx + r * Math.cos(a)).toFixed(2)} ${(cy + r * Math.sin(a)).toFixed(2)}`;
  return points.map((p) => {
    const share = Math.max(p.value, 0) / total;
    if (share >= 0.9999) {
      // One arc cannot draw a full circle: two halves.
      return `M ${at(angle)} A ${r} ${r} 0 1 1 ${at(angle + Math.PI)} A ${r} ${r} 0 1 1 ${at(angle)} Z`;
    }
    const start = angle;
    angle += share * 2 * Math.PI;
    const large = share > 0.5 ? 1 : 0;
    return share === 0
      ? ''
      : `M ${cx} ${cy} L ${at(start)} A ${r} ${r} 0 ${large} 1 ${at(angle)} Z`;
  });
}

import { useMemo } from 'react';
import { encode } from 'uqr';
import './qr-code.css';

/**
 * A QR code drawn as SVG shapes by React (never as markup from a string). Dark modules on white
 * whatever the site's theme, with a quiet zone, since phone cameras need that contrast. Each run
 * of dark modules in a row is one rect, to keep the DOM small.
 */
export function QrCode({
  text,
  label,
  size = 200,
}: {
  text: string;
  label: string;
  size?: number;
}) {
  const { runs, modules } = useMemo(() => {
    const qr = encode(text, { ecc: 'M', border: 2 });
    const found: Array<{ x: number; y: number; width: number }> = [];
    qr.data.forEach((row, y) => {
      let start = -1;
      row.forEach((dark, x) => {
        if (dark && start < 0) start = x;
        if ((!dark || x === row.length - 1) && start >= 0) {
          const end = dark ? x + 1 : x;
          found.push({ x: start, y, width: end - start });
          start = -1;
        }
      });
    });
    return { runs: found, modules: qr.size };
  }, [text]);
  return (
    <svg
      className="qr-code"
      role="img"
      aria-label={label}
      width={size}
      height={size}
      viewBox={`0 0 ${modules} ${modules}`}
      shapeRendering="crispEdges"
    >
      <rect width={modules} height={modules} fill="#ffffff" />
      {runs.map((run) => (
        <rect
          key={`${run.x}:${run.y}`}
          x={run.x}
          y={run.y}
          width={run.width}
          height={1}
          fill="#000000"
        />
      ))}
    </svg>
  );
}

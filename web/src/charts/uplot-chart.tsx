import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/**
 * A uPlot chart as a React component: the instance is made on mount (and when `options` change),
 * fed new data in place, sized to its container's width as that changes, and destroyed on
 * unmount. The canvas says nothing to a screen reader, so the figure carries `label`, a summary
 * in words.
 */
export function UplotChart({
  options,
  data,
  height,
  label,
}: {
  /** Everything but the size, which follows the container. Keep it stable (useMemo). */
  options: Omit<uPlot.Options, 'width' | 'height'>;
  data: uPlot.AlignedData;
  height: number;
  label: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);
  const latest = useRef(data);
  latest.current = data;

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const width = () => Math.max(120, Math.floor(el.clientWidth));
    const u = new uPlot({ ...options, width: width(), height }, latest.current, el);
    chart.current = u;
    const observer = new ResizeObserver(() => u.setSize({ width: width(), height }));
    observer.observe(el);
    return () => {
      observer.disconnect();
      u.destroy();
      chart.current = null;
    };
  }, [options, height]);

  useEffect(() => {
    chart.current?.setData(data);
  }, [data]);

  return <div ref={box} className="chart" role="img" aria-label={label} />;
}

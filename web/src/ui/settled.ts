import { useEffect, useState } from 'react';

/**
 * The text after it stopped changing for `ms` (a preview asked for once typing pauses). Text, not
 * any value: an object made anew each render would never compare equal, and settling it would
 * render again every `ms` for as long as the field is shown.
 */
export function useSettled(value: string, ms: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

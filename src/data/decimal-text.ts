/** Integer units as the shortest decimal that says them: how Tardis files write amounts, and how messages quote a file's values. */
import { formatUnits } from '../engine/index.ts';

/** 4_200_001_000_000 at 8 decimals is "42000.01"; 100_000_000 is "1". */
export function decimalText(units: number, precision: number): string {
  const text = formatUnits(units, precision);
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

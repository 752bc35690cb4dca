/** `report compare` names runs by their folders: the folder's name, or its path from the common parent when names repeat. */
import { expect, test } from 'vitest';
import { runLabels } from '../../../src/backtest/compare-reports.ts';

test('folder names, not absolute paths', () => {
  expect(runLabels(['/home/q/out/sweep/runs/001-fast=5', '/home/q/out/grid/'])).toEqual(['001-fast=5', 'grid']);
});

test('names that repeat: the paths from the common parent', () => {
  expect(runLabels(['/home/q/a/run', '/home/q/b/run'])).toEqual(['a/run', 'b/run']);
  expect(runLabels(['/x/monday/v1/run', '/x/tuesday/v1/run'])).toEqual(['monday/v1/run', 'tuesday/v1/run']);
});

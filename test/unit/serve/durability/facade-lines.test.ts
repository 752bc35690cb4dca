/**
 * The host's notes on the facade lines of the write-ahead log: a change carries the notes set to
 * a new value, the last value wins in a merge, a restore puts them back, and they sit last on the
 * line, where they were when the facade carried them (a log written before reads the same).
 */
import { expect, test } from 'vitest';
import { EngineBackend, ExchangeContext } from '../../../../src/api-facade/index.ts';
import { SAMPLE_CONFIG, sampleAccounts } from '../../../../src/sample/index.ts';
import { FacadeLineMerger, FacadeLines, HostNotes } from '../../../../src/serve/index.ts';
import { isEmptyFacadeLine } from '../../../../src/serve/durability/facade-lines.ts';

const T0 = Date.UTC(2024, 0, 1) * 1000;
const served = () => {
  const ctx = new ExchangeContext({ backend: new EngineBackend(SAMPLE_CONFIG, T0, sampleAccounts(T0)) });
  const notes = new HostNotes();
  return { ctx, notes, lines: new FacadeLines(ctx, notes) };
};

test("a change carries the notes set to a new value, the last value wins, a restore puts them back", () => {
  const { ctx, notes, lines } = served();
  lines.change();
  notes.set('pacing', '{"mode":"manual","pausedFrom":"speed:10"}');
  const merger = new FacadeLineMerger();
  merger.merge(lines.full());
  expect(lines.change().notes).toEqual([['pacing', '{"mode":"manual","pausedFrom":"speed:10"}']]);
  // The same value again is no change.
  notes.set('pacing', '{"mode":"manual","pausedFrom":"speed:10"}');
  expect(isEmptyFacadeLine(lines.change(), ctx.faults.draws)).toBe(true);
  notes.set('pacing', '{"mode":"speed:10","pausedFrom":null}');
  merger.merge(lines.change());
  expect(merger.result()!.notes).toEqual([['pacing', '{"mode":"speed:10","pausedFrom":null}']]);

  const fresh = served();
  fresh.lines.restore(merger.result()!);
  expect(fresh.notes.get('pacing')).toBe('{"mode":"speed:10","pausedFrom":null}');
  expect(isEmptyFacadeLine(fresh.lines.change(), fresh.ctx.faults.draws)).toBe(true);
});

test('the notes are the last key of a line, after the facade records', () => {
  const { ctx, notes, lines } = served();
  ctx.equityDisclaimers.accept(1, T0 + 5);
  notes.set('pacing', '{"mode":"realtime","pausedFrom":null}');
  const line = lines.full();
  expect(Object.keys(line)).toEqual(['weight', 'orders', 'keyed', 'faultDraws', 'disclaimers', 'notes']);
  expect(line.notes).toEqual([['pacing', '{"mode":"realtime","pausedFrom":null}']]);
});

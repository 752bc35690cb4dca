/**
 * One backtest's digest pinned: the grid example on two hours of the bundled sample, under the
 * default fill model, latency, book and seed. The digest (backtest-digest.ts) covers every engine
 * command and its events, the market model's non-fill decisions, the tape and the strategy's own
 * commands, so any change in what a backtest does moves one of these hashes. Update them only for
 * an intended change of behaviour, and say why in the commit.
 */
import { expect, test } from 'vitest';
import { parseBacktestRequest, runBacktestRequest } from '../../src/backtest/index.ts';

// The default book is the order-flow book since issue 23 (a synthetic book that lives between
// prints): the grid quotes around what it shows, so its commands and every hash after them moved.
const GOLDEN = {
  entries: 9071,
  sha256: '4e3952e28d17295ec654e58ddbab29ce52cd0bb232b9fcf7266afa55ce849548',
  decisionsSha256: '98ec161c37e94a723c83bbe7447054357089c5d33d009554aafeb073d35d1ac1',
  tapeSha256: '21e27b7bb6a8b11e2e863eae976d1070e160667b94237f4aadc86896b4d95011',
  strategyCommands: 3600,
  strategyCommandsSha256: 'a0d6b5848cbfbfcc702c2570405cdf00e7fad6fe4aa7a06906ec85721d89f908',
};

// The static ladder of before, asked for by name: taken at 6a58804 (the default then), and
// unchanged through the one fill path, the liquidity interface and the order-flow book.
const GOLDEN_LADDER = {
  entries: 9071,
  sha256: '3dc047379331fee15427a31b62c500bdf2be1abef01e52148270796ea9be4532',
  decisionsSha256: '2f35fe86b7f2d6d5253f74646046d061142d328e44b8aea89e0c6fdb6d0298ae',
  tapeSha256: '21e27b7bb6a8b11e2e863eae976d1070e160667b94237f4aadc86896b4d95011',
  strategyCommands: 3600,
  strategyCommandsSha256: '6857936815992fde2fc328b77e4be3e7201a42538cd75e5951bcc3cd06cff768',
};

async function digestOf(book: string | undefined) {
  const request = parseBacktestRequest('grid', { data: 'sample', from: '2024-01-01T08:00', to: '2024-01-01T10:00', fillModel: 'queue', latency: 'none', seed: '1', ...(book === undefined ? {} : { book }) });
  const first = (await runBacktestRequest(request, null)).summary.journal;
  const second = (await runBacktestRequest(request, null)).summary.journal;
  expect(second).toEqual(first);
  const { file: _file, fileSha256: _fileSha256, ...digest } = first;
  return digest;
}

test('the grid example over two hours of the sample has the golden digest, run after run', async () => {
  expect(await digestOf(undefined)).toEqual(GOLDEN);
});

test('with the static ladder by name, the digest it had before the order-flow book', async () => {
  expect(await digestOf('model=ladder')).toEqual(GOLDEN_LADDER);
});

/**
 * What a backtest's data is, by content: the market rules and every data file of its symbols whose
 * period overlaps the window (trades, aggTrades, klines and depth alike: names, sizes, SHA-256). A queued
 * job carries the submitter's fingerprint; a worker computes its own over its data folder and
 * refuses the job when they differ, so a result never comes from other data than the one asked.
 * Hashes are kept per file (path, size, modification time), so a worker hashes a month of dumps
 * once, not once per job. USDⓈ-M futures dumps (`futures/um/...`, the same names as spot's) count
 * for the perpetuals a run trades, named `futures/um/<name>` so they never pass for the spot file;
 * so do their fundingRate dumps (`<S>-fundingRate-YYYY-MM`, read-funding-rates.ts) and 1m mark
 * klines (`futures/um/markPriceKlines/<name>`, read-mark-klines.ts).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { dropUnpackedTwins, marketOfPath, parseDataFilePath, priceKlinesFolder, type DataMarket } from './data-file-name.ts';
import { parseDumpFileName } from './dump-file-name.ts';
import { parseFundingRateFileName } from './read-funding-rates.ts';
import { listDataFiles } from './dump-sources.ts';
import { openMarketData } from './market-folder.ts';

export interface FingerprintFile {
  readonly name: string;
  readonly size: number;
  readonly sha256: string;
}

export interface DataFingerprint {
  /** SHA-256 over the rest: equal fingerprints, equal data. */
  readonly sha256: string;
  /** SHA-256 of the market rules (the folder's exsim-market.json, or the sample market's). */
  readonly rules: string;
  readonly files: readonly FingerprintFile[];
}

const sha256 = (text: string | Buffer): string => createHash('sha256').update(text).digest('hex');

const fileHashes = new Map<string, { size: number; mtimeMs: number; sha256: string }>();

async function hashFile(path: string, market: DataMarket, folder: string | null = null): Promise<FingerprintFile> {
  const info = await stat(path);
  const known = fileHashes.get(path);
  const name = market === 'spot' ? basename(path) : `futures/${market}/${folder === null ? '' : `${folder}/`}${basename(path)}`;
  if (known !== undefined && known.size === info.size && known.mtimeMs === info.mtimeMs) return { name, size: info.size, sha256: known.sha256 };
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  const digest = hash.digest('hex');
  fileHashes.set(path, { size: info.size, mtimeMs: info.mtimeMs, sha256: digest });
  return { name, size: info.size, sha256: digest };
}

/**
 * A perpetual's recorded funding or mark as a fingerprinted file, or null: a USDⓈ-M fundingRate
 * dump (read-funding-rates.ts) or a markPriceKlines dump (read-mark-klines.ts; named
 * `futures/um/markPriceKlines/<name>` apart from the trade klines of the same name).
 */
function perpetualRecord(path: string): { symbol: string; market: DataMarket; start: number; end: number; folder: string | null } | null {
  if (marketOfPath(path) !== 'um') return null;
  const funding = parseFundingRateFileName(basename(path));
  if (funding !== null) return { ...funding, market: 'um', folder: null };
  const kline = parseDumpFileName(basename(path));
  if (kline === null || kline.kind !== 'klines' || priceKlinesFolder(path) !== 'markPriceKlines') return null;
  return { symbol: kline.symbol, market: 'um', start: kline.start, end: kline.end, folder: 'markPriceKlines' };
}

/** The fingerprint of `source` (`sample` or a folder) for `symbols` (and the perpetuals `futures`) over [from, to) µs. */
export async function fingerprintData(source: string, symbols: readonly string[], from: number, to: number, futures: readonly string[] = []): Promise<DataFingerprint> {
  const data = openMarketData(source);
  const inWindow: { path: string; market: DataMarket; folder?: string | null }[] = [];
  for (const path of await listDataFiles(data.dir)) {
    const parsed = parseDataFilePath(path) ?? perpetualRecord(path);
    if (parsed === null || !(parsed.market === 'spot' ? symbols : futures).includes(parsed.symbol)) continue;
    if (parsed.start * 1000 < to && parsed.end * 1000 > from) inWindow.push({ path, market: parsed.market, folder: 'folder' in parsed ? parsed.folder : null });
  }
  // An unpacked x.csv beside its packed twin is the same data (the loaders read the packed one): leave it out.
  const kept = dropUnpackedTwins(inWindow, (f) => f.path);
  const files = await Promise.all(kept.map((f) => hashFile(f.path, f.market, f.folder ?? null)));
  files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.sha256 < b.sha256 ? -1 : 1));
  const rules = sha256(JSON.stringify(data.config));
  return { sha256: sha256(JSON.stringify({ rules, files })), rules, files };
}

/** Why `here` is not the data `expected` names (at most three reasons), or null when it is. */
export function dataDifference(expected: DataFingerprint, here: DataFingerprint): string | null {
  if (expected.sha256 === here.sha256) return null;
  const reasons: string[] = [];
  if (expected.rules !== here.rules) reasons.push('the market rules (exsim-market.json) differ');
  const mine = new Map(here.files.map((f) => [f.name, f]));
  for (const file of expected.files) {
    const local = mine.get(file.name);
    if (local === undefined) reasons.push(`${file.name} is missing`);
    else if (local.size !== file.size || local.sha256 !== file.sha256) {
      reasons.push(`${file.name} is ${local.size} bytes, sha256 ${local.sha256.slice(0, 12)} here, ${file.size} bytes, sha256 ${file.sha256.slice(0, 12)} in the submitter's data`);
    }
  }
  const theirs = new Set(expected.files.map((f) => f.name));
  for (const file of here.files) if (!theirs.has(file.name)) reasons.push(`${file.name} is here but not in the submitter's data`);
  if (reasons.length === 0) reasons.push('the files are listed differently');
  return reasons.slice(0, 3).join('; ') + (reasons.length > 3 ? ` (and ${reasons.length - 3} more)` : '');
}

/**
 * One REST depth snapshot, `GET <rest>/api/v3/depth?symbol=X&limit=5000` (the deepest the venue
 * gives, weight 250 on Binance): the body as received (it is recorded raw) and its
 * lastUpdateId (the recorder checks it against the stream's first update id).
 */
export interface DepthSnapshotAnswer {
  readonly body: string;
  readonly lastUpdateId: number;
}

/** A failed request: what to write down, and how long the venue asked us to wait (429/418 Retry-After), ms. */
export class SnapshotRequestError extends Error {
  constructor(
    message: string,
    readonly retryAfterMs: number | null,
  ) {
    super(message);
  }
}

export const SNAPSHOT_LIMIT = 5000;

export async function fetchDepthSnapshot(restUrl: string, symbol: string, signal: AbortSignal): Promise<DepthSnapshotAnswer> {
  const url = `${restUrl.replace(/\/+$/, '')}/api/v3/depth?symbol=${encodeURIComponent(symbol)}&limit=${SNAPSHOT_LIMIT}`;
  let response: Response;
  let body: string;
  try {
    response = await fetch(url, { signal });
    body = await response.text();
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause?.message;
    throw new SnapshotRequestError(`GET ${url}: ${error instanceof Error ? error.message : String(error)}${cause === undefined ? '' : ` (${cause})`}`, null);
  }
  if (!response.ok) {
    const retryAfter = Number(response.headers.get('retry-after'));
    throw new SnapshotRequestError(`GET ${url}: HTTP ${response.status} ${body.slice(0, 200)}`, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : null);
  }
  let lastUpdateId: unknown;
  try {
    lastUpdateId = (JSON.parse(body) as { lastUpdateId?: unknown }).lastUpdateId;
  } catch {
    lastUpdateId = undefined;
  }
  if (typeof lastUpdateId !== 'number' || !Number.isSafeInteger(lastUpdateId)) throw new SnapshotRequestError(`GET ${url}: the answer has no lastUpdateId: ${body.slice(0, 200)}`, null);
  return { body, lastUpdateId };
}

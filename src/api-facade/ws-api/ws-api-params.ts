/**
 * A WebSocket API request's `params` object as the parameter stage reads REST parameters
 * (RawParams: names to text), and the row schemas as the WebSocket API declares them.
 *
 * Rules:
 * - Each value is read as its payload text (signing/ws-api-payload.ts `valueText`): a string as
 *   sent, a number by its JSON text (so `"quantity": 1` and `"quantity": "1"` are the same, as
 *   the docs' examples mix both), true/false, an array by its JSON text (`["BTCUSDT","BNBBTC"]`,
 *   the REST list form), null as sent empty (-1105 as on REST).
 * - `apiKey` and `signature` are authentication (ws-api-authenticator.ts), `returnRateLimits`
 *   is the connection's (ws-api-connection.ts): none of them is an endpoint parameter. The REST
 *   rows declare `signature` (it counts as read there); on the WebSocket API a logged-on session
 *   sends none, so a row's schema is used without it (`wsSchemaOf`), built once per row.
 */
import type { Endpoint } from '../endpoints/index.ts';
import { defineSchema, type ParamSchema, type ParamSource, type RawParams } from '../params/index.ts';
import { valueText } from '../signing/index.ts';

const NOT_ENDPOINT_PARAMS: ReadonlySet<string> = new Set(['apiKey', 'signature', 'returnRateLimits']);

/** The endpoint parameters of a request's `params`, as RawParams. */
export function collectWsApiParams(params: Readonly<Record<string, unknown>>): RawParams {
  const values = new Map<string, string>();
  const sources = new Map<string, ParamSource>();
  for (const name of Object.keys(params)) {
    if (NOT_ENDPOINT_PARAMS.has(name)) continue;
    values.set(name, valueText(params[name]));
    sources.set(name, 'body');
  }
  return { query: '', body: '', values, sources };
}

const SCHEMAS = new WeakMap<Endpoint, Endpoint>();

/** The row with its schema as the WebSocket API reads it (no `signature` parameter). */
export function wsApiRowOf(row: Endpoint): Endpoint {
  let ws = SCHEMAS.get(row);
  if (ws === undefined) {
    const params = row.schema.params.filter((p) => p.name !== 'signature');
    const schema: ParamSchema = params.length === row.schema.params.length ? row.schema : defineSchema(params, row.schema.rules);
    ws = schema === row.schema ? row : { ...row, schema };
    SCHEMAS.set(row, ws);
  }
  return ws;
}

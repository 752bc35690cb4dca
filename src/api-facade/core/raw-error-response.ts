/**
 * An error written straight to a socket as a whole HTTP/1.1 response: for the places where there
 * is no ServerResponse to write to (a request node:http could not parse, a refused WebSocket
 * upgrade). The body is the same JSON every other refusal carries; the connection closes after it.
 */
import { STATUS_CODES } from 'node:http';
import type { ApiError } from './api-error.ts';

export function rawErrorResponse(error: ApiError): string {
  const body = JSON.stringify(error.toBody());
  const reason = STATUS_CODES[error.status] ?? 'Error';
  return `HTTP/1.1 ${error.status} ${reason}\r\nContent-Type: application/json;charset=UTF-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';

/** How long the rest of a refused request is read (and dropped) before the connection is closed. */
const DRAIN_MS = 5_000;

/**
 * Answers requests Node's HTTP parser refuses before any route sees them with the API's JSON errors:
 * a request line and headers over Node's 16 KB limit (a query string of 100 KB) get a 431, any other
 * malformed request a 400. Node's own answer has no body and closes the connection while the client
 * is still sending, which the client sees as a reset; here the rest of the request is read and
 * dropped (for at most 5 s) after the answer, so the client reads the answer.
 *
 * @example answerClientErrors(server) // once, on the server `serve()` returned
 */
export function answerClientErrors(server: Server): void {
  const answered = new WeakSet<Duplex>();
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // The parser reports again for every chunk that arrives after its first error.
    if (answered.has(socket)) return;
    answered.add(socket);
    if (error.code === 'ECONNRESET' || !socket.writable || bytesWritten(socket) > 0) {
      socket.destroy();
      return;
    }
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const body = JSON.stringify({
      error: tooLarge
        ? {
            code: 'request_header_too_large',
            message:
              'The request line and headers are larger than 16 KB: send a shorter query string (long input belongs in a POST body)',
          }
        : { code: 'bad_request', message: 'Malformed HTTP request' },
    });
    socket.end(
      `HTTP/1.1 ${tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request'}\r\n` +
        'Content-Type: application/json; charset=UTF-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n' +
        body,
    );
    // Closing with unread bytes would send a reset, and the client might lose the answer.
    socket.resume();
    const timer = setTimeout(() => socket.destroy(), DRAIN_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
    socket.once('end', () => socket.destroy());
  });
}

function bytesWritten(socket: Duplex): number {
  return (socket as Duplex & { bytesWritten?: number }).bytesWritten ?? 0;
}

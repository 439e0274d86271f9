/**
 * The HTTP references of the suite, in a process of their own (so the load generator does not
 * share a thread with them): `node --import tsx reference-server.ts <kind> [payload-file]`.
 * kind `bare`: node:http answering `{"status":"live"}`; `express`: a bare express POST endpoint
 * answering the payload file's text as JSON (a fixed answer of the size of the real one).
 * Prints the port on stdout, exits on SIGTERM or when stdin closes.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';

const [kind, payloadFile] = process.argv.slice(2);
let server;
if (kind === 'express') {
  const payload = readFileSync(payloadFile ?? '', 'utf8');
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.post('/', (_req, res) => {
    res.type('application/json').send(payload);
  });
  server = createServer(app);
} else {
  server = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end('{"status":"live"}');
  });
}
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${(server.address() as AddressInfo).port}\n`);
});
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));

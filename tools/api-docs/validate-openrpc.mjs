// Reads an OpenRPC document on stdin and prints what @open-rpc/schema-utils-js's
// validateOpenRPCDocument says: `true`, or the error text. A separate Node process because the
// package require()s an ES module (fine for Node ≥ 20.19, not inside jest's module system).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { validateOpenRPCDocument } = require('@open-rpc/schema-utils-js');

let text = '';
process.stdin.setEncoding('utf8');
for await (const chunk of process.stdin) text += chunk;
const result = validateOpenRPCDocument(JSON.parse(text));
process.stdout.write(JSON.stringify(result === true ? true : String(result?.message ?? result)));

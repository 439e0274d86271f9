// Reads an OpenRPC document on stdin and checks every example's params with
// @open-rpc/schema-utils-js's MethodCallValidator (what a generated client or server does with the
// document). Prints a JSON array of the failures: `[]` when every example passes. A separate Node
// process for the same reason as validate-openrpc.mjs (the package require()s an ES module).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { MethodCallValidator, dereferenceDocument } = require('@open-rpc/schema-utils-js');

let text = '';
process.stdin.setEncoding('utf8');
for await (const chunk of process.stdin) text += chunk;
const doc = await dereferenceDocument(JSON.parse(text));
const validator = new MethodCallValidator(doc);
const failures = [];
let checked = 0;
for (const method of doc.methods) {
  for (const example of method.examples ?? []) {
    const pairs = example.params ?? [];
    const params =
      method.paramStructure === 'by-name'
        ? Object.fromEntries(pairs.map((p) => [p.name, p.value]))
        : pairs.map((p) => p.value);
    const result = validator.validate(method.name, params);
    checked += 1;
    const errors = Array.isArray(result) ? result : [result];
    if (errors.length > 0) {
      failures.push({
        method: method.name,
        example: example.name,
        errors: errors.map((e) => String(e?.message ?? e)),
      });
    }
  }
}
process.stdout.write(JSON.stringify({ checked, failures }));

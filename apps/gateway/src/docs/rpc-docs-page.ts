/**
 * The JSON-RPC APIs as people read them: one server-rendered page per OpenRPC document
 * (`/docs/rpc/<file>`), every method with its params, result, service errors and examples, and a
 * "Try it" button per example (docs/rpc.js posts the example request to the endpoint and shows
 * the answer). No inline script: the CSP of /docs allows only the gateway's own files.
 */
import { readFileSync } from 'node:fs';

type Json = Record<string, unknown>;

const escape = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A JSON Schema in one line a reader takes in: type, format, pattern, enum, required members. */
export function schemaSummary(schema: unknown, depth = 0): string {
  if (!schema || typeof schema !== 'object') return 'any';
  const s = schema as Json;
  if (Array.isArray(s['oneOf']) || Array.isArray(s['anyOf'])) {
    const options = (s['oneOf'] ?? s['anyOf']) as unknown[];
    return options.map((o) => schemaSummary(o, depth)).join(' | ');
  }
  if (s['const'] !== undefined) return JSON.stringify(s['const']);
  if (Array.isArray(s['enum']))
    return (s['enum'] as unknown[]).map((v) => JSON.stringify(v)).join(' | ');
  const type = Array.isArray(s['type'])
    ? (s['type'] as string[]).join(' | ')
    : String(s['type'] ?? 'any');
  if (type === 'object' && s['properties'] && depth < 2) {
    const required = new Set((s['required'] as string[] | undefined) ?? []);
    const members = Object.entries(s['properties'] as Record<string, unknown>).map(
      ([name, sub]) => `${name}${required.has(name) ? '' : '?'}: ${schemaSummary(sub, depth + 1)}`,
    );
    return `{ ${members.join(', ')} }`;
  }
  if (type === 'array' && s['items']) return `${schemaSummary(s['items'], depth + 1)}[]`;
  const pattern = typeof s['pattern'] === 'string' ? ` /${s['pattern']}/` : '';
  return `${type}${pattern}`;
}

function descriptorRow(d: Json): string {
  const description = typeof d['description'] === 'string' ? d['description'] : '';
  const schemaDescription =
    typeof (d['schema'] as Json | undefined)?.['description'] === 'string'
      ? String((d['schema'] as Json)['description'])
      : '';
  return `<tr><td><code>${escape(String(d['name'] ?? ''))}</code>${d['required'] === false ? ' (optional)' : ''}</td><td><code>${escape(schemaSummary(d['schema']))}</code></td><td>${escape(description || schemaDescription)}</td></tr>`;
}

/** The request an example stands for, as the client sends it. */
export function exampleRequest(method: Json, example: Json): string {
  const pairs = (example['params'] as Array<{ name: string; value: unknown }> | undefined) ?? [];
  const params =
    method['paramStructure'] === 'by-position'
      ? pairs.map((p) => p.value)
      : Object.fromEntries(pairs.map((p) => [p.name, p.value]));
  return JSON.stringify({ jsonrpc: '2.0', id: 1, method: method['name'], params }, null, 2);
}

export function renderRpcPage(
  doc: Json,
  page: { endpoint: string; file: string; title: string },
): string {
  const { endpoint, file, title } = page;
  const info = (doc['info'] as Json | undefined) ?? {};
  const methods = (doc['methods'] as Json[] | undefined) ?? [];
  const sections = methods.map((method, m) => {
    const name = String(method['name']);
    const params = (method['params'] as Json[] | undefined) ?? [];
    const result = (method['result'] as Json | undefined) ?? {};
    const examples = (method['examples'] as Json[] | undefined) ?? [];
    const errors = (method['errors'] as Json[] | undefined) ?? [];
    return `<section id="${escape(name)}">
<h2><code>${escape(name)}</code></h2>
<p>${escape(String(method['summary'] ?? ''))}</p>
${method['description'] ? `<p>${escape(String(method['description']))}</p>` : ''}
<h3>Params (${escape(String(method['paramStructure'] ?? 'either'))})</h3>
${params.length === 0 ? '<p>none</p>' : `<table><tr><th>name</th><th>schema</th><th></th></tr>${params.map(descriptorRow).join('')}</table>`}
<h3>Result</h3>
<p><code>${escape(schemaSummary(result['schema']))}</code></p>
${errors.length > 0 ? `<h3>Errors</h3><ul>${errors.map((e) => `<li><code>${escape(String(e['code']))}</code> ${escape(String(e['message'] ?? ''))}</li>`).join('')}</ul>` : ''}
${examples
  .map(
    (example, e) => `<div class="example">
<h3>Example: ${escape(String(example['name'] ?? ''))}</h3>
<pre id="req-${m}-${e}">${escape(exampleRequest(method, example))}</pre>
<button type="button" class="try" data-request="req-${m}-${e}" data-answer="ans-${m}-${e}">Try it</button>
<pre id="ans-${m}-${e}" class="answer" hidden></pre>
</div>`,
  )
  .join('\n')}
</section>`;
  });
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escape(title)}</title>
<link rel="icon" href="/docs/favicon-32x32.png">
<link rel="stylesheet" href="/docs/rpc.css">
<script src="/docs/rpc.js" defer></script>
</head>
<body data-endpoint="${escape(endpoint)}">
<nav><a href="/docs">API documentation</a> · <a href="/openrpc/${escape(file)}">OpenRPC document</a></nav>
<h1>${escape(title)}</h1>
<p>${escape(String(info['description'] ?? ''))}</p>
<p>JSON-RPC 2.0: <code>POST ${escape(endpoint)}</code> with <code>Content-Type: application/json</code>. Methods: ${methods.map((m) => `<a href="#${escape(String(m['name']))}">${escape(String(m['name']))}</a>`).join(' · ')}</p>
${sections.join('\n')}
</body>
</html>
`;
}

/**
 * The "Try it" buttons: POST the example to the endpoint of the page, show the answer. The file
 * browser/rpc.js beside this module, read once at start.
 */
export const RPC_SCRIPT = readFileSync(new URL('./browser/rpc.js', import.meta.url), 'utf8');

export const RPC_CSS = `body{font-family:system-ui,sans-serif;max-width:60rem;margin:1rem auto;padding:0 1rem;line-height:1.45}
section{border-top:1px solid #ddd;margin-top:1.5rem}
pre{background:#f6f6f6;padding:.6em;overflow:auto}
pre.answer{background:#eef6ee}
td,th{text-align:left;padding:.2em .8em .2em 0;vertical-align:top}
nav{margin-bottom:1rem}
`;

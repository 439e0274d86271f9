import fc from 'fast-check';

/** Keys that pollute a prototype when an object is merged or assigned carelessly. */
export const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

/** Numbers at and beyond every limit a schema or a database column may have. */
const EDGE_NUMBERS: fc.Arbitrary<unknown> = fc.constantFrom(
  -1,
  0,
  -0,
  1.5,
  -1e308,
  1e308,
  2 ** 31,
  2 ** 32,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 63),
  2 ** 64,
  1e21,
  5e-324,
  Number.MAX_SAFE_INTEGER,
  Number.MIN_SAFE_INTEGER,
);

/** Strings that break naive parsers, encoders, SQL, logs and terminals. */
const EDGE_STRINGS: fc.Arbitrary<unknown> = fc.constantFrom(
  '',
  ' ',
  '\u0000',
  '\ud800',
  '\udfff',
  '\ufeff',
  '\u202e',
  '💥'.repeat(300),
  'A\u0301'.repeat(50),
  "' OR 1=1 --",
  '"; DROP TABLE auth_users; --',
  '${7*7}',
  '{{7*7}}',
  '../../etc/passwd',
  '%00',
  '\r\nSet-Cookie: x=y',
  '<script>alert(1)</script>',
  'NaN',
  'Infinity',
  '-1',
  '1e309',
  '0x',
  '0x' + 'f'.repeat(64),
  '0x' + 'g'.repeat(40),
  '9'.repeat(400),
  'latest',
  'pending',
  'did:ethr:0x' + '0'.repeat(40),
  'null',
  'true',
  '[]',
  '{}',
);

/** Deeply nested arrays or objects (built iteratively: a recursive builder would overflow here). */
function nested(depth: number, kind: 'array' | 'object'): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = kind === 'array' ? [value] : { a: value };
  return value;
}

/** An object whose own enumerable keys include a prototype key (JSON.parse makes it so). */
export function protoObject(
  key: string,
  inner: unknown = { polluted: true, isAdmin: true },
): Record<string, unknown> {
  return JSON.parse(`{${JSON.stringify(key)}:${JSON.stringify(inner)}}`) as Record<string, unknown>;
}

/** One hostile JSON value of any type. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: EDGE_NUMBERS },
  { weight: 3, arbitrary: EDGE_STRINGS },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 300 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 100 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1000, max: 200_000 }).map((n) => 'x'.repeat(n)) },
  { weight: 1, arbitrary: fc.integer({ min: 50, max: 1_500 }).map((d) => nested(d, 'array')) },
  { weight: 1, arbitrary: fc.integer({ min: 50, max: 1_500 }).map((d) => nested(d, 'object')) },
  { weight: 1, arbitrary: fc.constantFrom(...PROTO_KEYS).map((k) => protoObject(k)) },
  { weight: 2, arbitrary: fc.constantFrom(null, true, false, [], {}, [null], [[]]) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.array(fc.string(), { minLength: 100, maxLength: 2_000 }) },
);

/**
 * `value` broken in one place: a member replaced by a hostile value, dropped, or joined by a
 * prototype key; or the whole value replaced.
 */
export function mutate(value: unknown): fc.Arbitrary<unknown> {
  if (value === null || typeof value !== 'object') return hostileValue;
  const keys = Object.keys(value);
  const asRecord = value as Record<string, unknown>;
  const options: Array<fc.Arbitrary<unknown>> = [hostileValue];
  if (keys.length > 0) {
    options.push(
      fc
        .tuple(fc.constantFrom(...keys), hostileValue)
        .map(([k, v]) =>
          Array.isArray(value)
            ? value.map((x, i) => (String(i) === k ? v : x))
            : { ...asRecord, [k]: v },
        ),
      fc.constantFrom(...keys).map((k) => {
        if (Array.isArray(value)) return value.filter((_, i) => String(i) !== k);
        const { [k]: _dropped, ...rest } = asRecord;
        return rest;
      }),
    );
  }
  if (!Array.isArray(value)) {
    options.push(
      fc.constantFrom(...PROTO_KEYS).map((k) => ({ ...asRecord, ...protoObject(k) })),
      fc.constantFrom(...PROTO_KEYS).map((k) => protoObject(k, asRecord)),
    );
  }
  return fc.oneof(...options);
}

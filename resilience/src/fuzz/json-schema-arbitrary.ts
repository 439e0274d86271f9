import fc from 'fast-check';

/** The subset of JSON Schema (draft 2020-12, as zod's toJSONSchema and the OpenRPC documents write it) the fuzzer reads. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  definitions?: Record<string, JsonSchema>;
  additionalProperties?: JsonSchema | boolean;
}

const MAX_DEPTH = 6;

function patternArbitrary(pattern: string, maxLength?: number): fc.Arbitrary<string> {
  try {
    const arb = fc.stringMatching(new RegExp(pattern));
    return maxLength === undefined ? arb : arb.filter((s) => s.length <= maxLength);
  } catch {
    // A pattern fast-check cannot generate from (lookarounds…): any short string.
    return fc.string({ maxLength: 64 });
  }
}

/**
 * Values that (mostly) satisfy `schema`: the start point of schema-driven fuzzing (valid shapes
 * reach the services' logic, not only their validation), which `mutate` then breaks in places.
 */
export function schemaArbitrary(
  schema: JsonSchema | undefined,
  root: JsonSchema | undefined = schema,
  depth = 0,
): fc.Arbitrary<unknown> {
  if (!schema || depth > MAX_DEPTH) return fc.jsonValue({ maxDepth: 2 });
  if (schema.$ref) {
    const name = schema.$ref.split('/').pop() ?? '';
    const target = root?.$defs?.[name] ?? root?.definitions?.[name];
    return schemaArbitrary(target, root, depth + 1);
  }
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) {
    return fc.oneof(...alternatives.map((s) => schemaArbitrary(s, root, depth + 1)));
  }
  if (schema.allOf?.length && !schema.type)
    return schemaArbitrary(schema.allOf[0], root, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string': {
      const pattern = schema.pattern ?? schema.allOf?.find((s) => s.pattern)?.pattern;
      if (pattern) return patternArbitrary(pattern, schema.maxLength);
      return fc.string({
        minLength: schema.minLength ?? 0,
        maxLength: Math.min(schema.maxLength ?? 64, 200),
      });
    }
    case 'integer':
      return fc.integer({
        min: Math.max(schema.minimum ?? -1_000_000, Number.MIN_SAFE_INTEGER),
        max: Math.min(schema.maximum ?? 1_000_000_000, Number.MAX_SAFE_INTEGER),
      });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e9, max: schema.maximum ?? 1e9, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      if (schema.prefixItems) {
        return fc.tuple(...schema.prefixItems.map((s) => schemaArbitrary(s, root, depth + 1)));
      }
      return fc.array(schemaArbitrary(schema.items, root, depth + 1), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 4, 4),
      });
    }
    case 'object': {
      const properties = schema.properties ?? {};
      const required = new Set(schema.required ?? []);
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, sub] of Object.entries(properties)) {
        record[key] = schemaArbitrary(sub, root, depth + 1);
      }
      const optional = Object.keys(properties).filter((k) => !required.has(k));
      return fc
        .record(record, { requiredKeys: [...required].filter((k) => k in properties) })
        .map((value) => (optional.length || Object.keys(properties).length ? value : {}));
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

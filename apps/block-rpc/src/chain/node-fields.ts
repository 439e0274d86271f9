import { NodeAnswerError } from '../errors.js';

/** A JSON object from the node. */
export type NodeObject = Record<string, unknown>;

const HEX_DATA = /^0x[0-9a-fA-F]*$/;
const HEX_QUANTITY = /^0x[0-9a-fA-F]+$/;
const HASH = /^0x[0-9a-fA-F]{64}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

export const FIELD_PATTERNS = {
  data: HEX_DATA,
  quantity: HEX_QUANTITY,
  hash: HASH,
  address: ADDRESS,
} as const;
export type FieldKind = keyof typeof FIELD_PATTERNS;

export function isNodeObject(value: unknown): value is NodeObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads fields of one node object (a block, a transaction, a receipt, a log) and names the object
 * and the field when one is malformed. Absent and `null` count the same: "omitted".
 */
export class NodeFields {
  constructor(
    private readonly obj: NodeObject,
    private readonly what: string,
  ) {}

  /** A field that must be present and match `kind`. */
  req(field: string, kind: FieldKind): string {
    const value = this.opt(field, kind);
    if (value === null) throw new NodeAnswerError(this.what, field);
    return value;
  }

  /** A field that may be omitted (null); when present it must match `kind`. */
  opt(field: string, kind: FieldKind): string | null {
    const value = this.obj[field];
    if (value === undefined || value === null) return null;
    if (typeof value !== 'string' || !FIELD_PATTERNS[kind].test(value)) {
      throw new NodeAnswerError(this.what, field);
    }
    return value;
  }

  /**
   * An optional quantity the node may send as hex or as a JSON number (anvil's blockTimestamp):
   * `{ [field]: integer, [field + 'Raw']: hex }`, or nothing when absent.
   */
  pairIfPresent(field: string): Record<string, number | string> {
    const value = this.obj[field];
    if (value === undefined || value === null) return {};
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) {
      return { [field]: value, [`${field}Raw`]: `0x${value.toString(16)}` };
    }
    const raw = this.opt(field, 'quantity')!;
    return { [field]: toNumber(raw), [`${field}Raw`]: raw };
  }

  /** An optional wei quantity: `{ [field]: decimal string, [field + 'Raw']: hex }`, or nothing. */
  weiPairIfPresent(field: string): Record<string, string> {
    const raw = this.opt(field, 'quantity');
    return raw === null ? {} : { [field]: toDecimal(raw), [`${field}Raw`]: raw };
  }

  /** A required quantity as an integer (rounded above 2^53 - 1). */
  int(field: string): number {
    return toNumber(this.req(field, 'quantity'));
  }

  intOrNull(field: string): number | null {
    const raw = this.opt(field, 'quantity');
    return raw === null ? null : toNumber(raw);
  }

  /** A required quantity as an exact decimal string. */
  decimal(field: string): string {
    return toDecimal(this.req(field, 'quantity'));
  }

  decimalOrNull(field: string): string | null {
    const raw = this.opt(field, 'quantity');
    return raw === null ? null : toDecimal(raw);
  }

  /** An array field whose elements match `kind` (required). */
  list(field: string, kind: FieldKind): string[] {
    const value = this.listOrNull(field, kind);
    if (value === null) throw new NodeAnswerError(this.what, field);
    return value;
  }

  listOrNull(field: string, kind: FieldKind): string[] | null {
    const value = this.obj[field];
    if (value === undefined || value === null) return null;
    if (
      !Array.isArray(value) ||
      !value.every((v) => typeof v === 'string' && FIELD_PATTERNS[kind].test(v))
    ) {
      throw new NodeAnswerError(this.what, field);
    }
    return value as string[];
  }

  /** A raw array field (elements checked by the caller). */
  array(field: string): unknown[] {
    const value = this.obj[field];
    if (!Array.isArray(value)) throw new NodeAnswerError(this.what, field);
    return value;
  }

  arrayOrNull(field: string): unknown[] | null {
    const value = this.obj[field];
    if (value === undefined || value === null) return null;
    if (!Array.isArray(value)) throw new NodeAnswerError(this.what, field);
    return value;
  }

  bool(field: string, fallback: boolean): boolean {
    const value = this.obj[field];
    if (value === undefined || value === null) return fallback;
    if (typeof value !== 'boolean') throw new NodeAnswerError(this.what, field);
    return value;
  }

  /**
   * Every field as the node sent it: the base a record is built on, so a field the mapping does not
   * know (one added by a later fork) reaches the caller unchanged instead of being dropped.
   */
  all(): NodeObject {
    return { ...this.obj };
  }

  /** Wraps a nested object for reading. */
  nested(value: unknown, what: string): NodeFields {
    if (!isNodeObject(value)) throw new NodeAnswerError(this.what, what);
    return new NodeFields(value, what);
  }
}

/** A hex quantity as a JSON number: exact up to 2^53 - 1, the nearest double beyond. */
export function toNumber(hex: string): number {
  return Number(BigInt(hex));
}

/** A hex quantity as an exact decimal string. */
export function toDecimal(hex: string): string {
  return BigInt(hex).toString(10);
}

/** Reads an object the node sent; `what` names it in errors. */
export function nodeFields(value: unknown, what: string): NodeFields {
  if (!isNodeObject(value)) throw new NodeAnswerError(what, '(root)');
  return new NodeFields(value, what);
}

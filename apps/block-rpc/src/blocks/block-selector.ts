import type { BlockSelectorParam } from '@itp/schemas';

/** Which block getBlock asks for, after the params were validated. */
export type BlockSelector =
  | { kind: 'number'; number: number }
  | { kind: 'tag'; tag: 'latest' | 'pending' | 'safe' | 'finalized' }
  | { kind: 'hash'; hash: string };

/**
 * The validated first getBlock param as a selector: omitted → latest; "earliest" → block 0;
 * 0x + 64 hex digits → a hash (lower-cased); other 0x strings → a number.
 */
export function toBlockSelector(param: BlockSelectorParam | undefined): BlockSelector {
  if (param === undefined) return { kind: 'tag', tag: 'latest' };
  if (typeof param === 'number') return { kind: 'number', number: param };
  if (param === 'earliest') return { kind: 'number', number: 0 };
  if (param === 'latest' || param === 'pending' || param === 'safe' || param === 'finalized') {
    return { kind: 'tag', tag: param };
  }
  if (param.length === 66) return { kind: 'hash', hash: param.toLowerCase() };
  return { kind: 'number', number: Number(param) };
}

/** How a selector is named in messages. */
export function describeSelector(selector: BlockSelector): string {
  switch (selector.kind) {
    case 'number':
      return `Block ${selector.number}`;
    case 'tag':
      return `Block "${selector.tag}"`;
    case 'hash':
      return `Block ${selector.hash}`;
  }
}

import type { IIdentifier } from '@veramo/core';
import type { DidAgent } from '../agent/create-did-agent.js';

/** The stored identifier of `did`, or undefined. */
export async function findIdentifier(
  agent: DidAgent,
  did: string,
): Promise<IIdentifier | undefined> {
  try {
    return await agent.didManagerGet({ did });
  } catch (err) {
    // Veramo's DIDStore says "Identifier not found"; anything else (database down) propagates.
    if (err instanceof Error && err.message === 'Identifier not found') return undefined;
    throw err;
  }
}

/** The stored did:ethr identifier named `alias`, or undefined. */
export async function findIdentifierByAlias(
  agent: DidAgent,
  alias: string,
): Promise<IIdentifier | undefined> {
  const [found] = await agent.didManagerFind({ alias, provider: 'did:ethr' });
  return found;
}

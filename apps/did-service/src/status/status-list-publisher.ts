import { createHash } from 'node:crypto';
import type { VerifiableCredential } from '@veramo/core';
import { createList } from '@digitalbazaar/vc-bitstring-status-list';
import { W3C_CREDENTIALS_CONTEXT, W3C_STATUS_CONTEXT } from '@itp/schemas';
import type { DidAgent } from '../agent/create-did-agent.js';
import type { StatusListRow, StatusListStore } from '../db/status-lists.js';
import type { StatusListUrls } from './status-list-urls.js';
import { tokenListBaseOf } from './token-status-list-urls.js';

/** One revision of a status list, signed: what GET /v2/did/status-lists/<listId> answers. */
export interface SignedStatusList {
  listId: string;
  revision: number;
  /** The BitstringStatusListCredential in this API's VC JSON shape (proof.jwt). */
  credential: VerifiableCredential;
  /** The compact JWT (`application/vc+jwt`). */
  jwt: string;
  /** SHA-256 of the JWT, base64url: the entity tag of both forms. */
  hash: string;
}

export interface StatusListPublisherDeps {
  store: StatusListStore;
  agent: DidAgent;
  urls: StatusListUrls;
}

/**
 * The signed status list credentials (W3C Bitstring Status List v1.0, purpose revocation): a VC
 * data model 1.1 credential of type BitstringStatusListCredential, signed as a JWT by the list's
 * issuer DID, whose `encodedList` is the library's encoding (GZIP, multibase base64url, index 0
 * the left-most bit). Each revision is signed once: the result is kept in the list's row (shared
 * by the replicas) and in memory; a request reads only the list's revision from the database and
 * signs only when no credential of that revision is stored. Replicas that meet a new revision
 * at the same moment may each sign it once; the database keeps the first, and the others answer
 * that one too (one body and ETag per revision on every replica).
 */
export class StatusListPublisher {
  private readonly memory = new Map<string, SignedStatusList>();
  private readonly inFlight = new Map<string, Promise<SignedStatusList>>();
  private signed = 0;

  constructor(private readonly deps: StatusListPublisherDeps) {}

  /** How many list credentials this instance has signed. */
  get signatures(): number {
    return this.signed;
  }

  /** The list's current revision, signed; undefined when there is no such list. */
  async current(listId: string): Promise<SignedStatusList | undefined> {
    const row = await this.deps.store.list(listId);
    // An SD-JWT VCs' token status list is served at its own path (token-status-list-publisher).
    if (!row || tokenListBaseOf(row.issuer) !== undefined) return undefined;
    const kept = this.memory.get(listId);
    if (kept && kept.revision === row.revision) return kept;
    const stored = this.storedSignature(row, row.revision);
    if (stored) return stored;
    const key = `${listId}@${row.revision}`;
    let signing = this.inFlight.get(key);
    if (!signing) {
      signing = this.sign(row).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, signing);
    }
    return signing;
  }

  private async sign(row: StatusListRow): Promise<SignedStatusList> {
    // Read after the revision: the bits are those of this revision or newer, never older.
    const list = await createList({ length: row.length });
    for (const index of await this.deps.store.revokedIndexes(row.id)) list.setStatus(index, true);
    const encodedList = await list.encode();
    const url = this.deps.urls.listUrl(row.id);
    const credential = await this.deps.agent.createVerifiableCredential({
      credential: {
        '@context': [W3C_CREDENTIALS_CONTEXT, W3C_STATUS_CONTEXT],
        id: url,
        type: ['VerifiableCredential', 'BitstringStatusListCredential'],
        issuer: { id: row.issuer },
        issuanceDate: new Date().toISOString(),
        credentialSubject: {
          id: `${url}#list`,
          type: 'BitstringStatusList',
          statusPurpose: 'revocation',
          encodedList,
        },
      },
      proofFormat: 'jwt',
    });
    this.signed += 1;
    if (!(await this.deps.store.saveCredential(row.id, row.revision, JSON.stringify(credential)))) {
      // Another replica signed this revision first: answer the stored one, so that every replica
      // serves the same bytes and ETag for a revision.
      const now = await this.deps.store.list(row.id);
      const stored = now && this.storedSignature(now, row.revision);
      if (stored) return stored;
    }
    return this.remember(signedList(row.id, row.revision, credential));
  }

  /** The list credential of `revision` kept in the database's `row`, remembered; else undefined. */
  private storedSignature(row: StatusListRow, revision: number): SignedStatusList | undefined {
    if (row.credential === null || row.credentialRevision !== revision) return undefined;
    return this.remember(signedList(row.id, revision, JSON.parse(row.credential)));
  }

  private remember(signed: SignedStatusList): SignedStatusList {
    const kept = this.memory.get(signed.listId);
    if (!kept || kept.revision <= signed.revision) this.memory.set(signed.listId, signed);
    return signed;
  }
}

function signedList(
  listId: string,
  revision: number,
  credential: VerifiableCredential,
): SignedStatusList {
  const jwt = (credential.proof as { jwt?: unknown }).jwt;
  if (typeof jwt !== 'string') throw new Error(`status list ${listId}: the credential has no JWT`);
  const hash = createHash('sha256').update(jwt).digest('base64url');
  return { listId, revision, credential, jwt, hash };
}

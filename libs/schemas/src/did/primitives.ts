import { isAddress } from 'ethers/address';
import { z } from 'zod';

/**
 * Building blocks of the DID API schemas (not exported from the package index under these names;
 * the message schemas beside this file use them).
 */

/** A 0x-prefixed 20-byte address; mixed case must be a valid EIP-55 checksum. */
export const didAddress = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte hex address')
  .refine((value) => isAddress(value), 'has a wrong EIP-55 checksum (mixed-case address)')
  .meta({
    description:
      '0x-prefixed 20-byte address: all lower case, all upper case, or mixed case with a valid EIP-55 checksum',
    // JSON Schema cannot check a checksum: the pattern lists the forms that need none.
    pattern: '^0x([0-9a-f]{40}|[0-9A-F]{40})$',
  });

/** Any DID (`did:<method>:<id>`), bounded. */
export const didString = z
  .string()
  .max(512)
  .regex(/^did:[a-z0-9]+:[A-Za-z0-9._:%-]+$/, 'must be a DID (did:<method>:<id>)')
  .meta({ description: 'a DID, e.g. did:ethr:0x…, did:key:z…, did:jwk:eyJ…' });

/**
 * A did:ethr DID of the configured chain: `did:ethr:<address>` (the default) or, where did-service
 * sets DID_NETWORK, `did:ethr:<network>:<address>` (network: hex chain id or a name).
 */
export const didEthrString = z
  .string()
  .max(200)
  .regex(
    /^did:ethr:(?:[A-Za-z0-9_.-]+:)?0x[0-9a-fA-F]{40}$/,
    'must be did:ethr:<0x address> or did:ethr:<network>:<0x address>',
  )
  .meta({
    description:
      'did:ethr:<0x-prefixed 20-byte address>, or did:ethr:<network>:<address> where the deployment sets a network segment (e.g. did:ethr:0x7a69:0x…)',
  });

/** The alias that names a DID: 1–100 printable characters, no leading/trailing space. */
export const didAlias = z
  .string()
  .min(1)
  .max(100)
  .regex(/^\S(.*\S)?$/, 'must not start or end with white space')
  // eslint-disable-next-line no-control-regex
  .regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters')
  .meta({ description: 'name of the DID (1–100 characters)' });

/** A compact JWS (three base64url parts). */
export const compactJwt = z
  .string()
  .max(65_536)
  .regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/, 'must be a compact JWT')
  .meta({ description: 'compact JWT (header.payload.signature)' });

/** ISO 8601 timestamp as the W3C VC data model 1.1 uses it. */
export const isoTimestamp = z
  .string()
  .max(64)
  .refine((value) => !Number.isNaN(Date.parse(value)), 'must be an ISO 8601 timestamp')
  .meta({ description: 'ISO 8601 timestamp (UTC)' });

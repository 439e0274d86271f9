/**
 * The version of the cached records' shape, part of every cache key. Bump it whenever what
 * block-rpc stores for a block, transaction or receipt changes (a field added, a mapping
 * changed): replicas of the new version then never read entries an older version wrote into
 * Redis (they could lack fields, e.g. the …Raw companions of version 2), and old replicas
 * still running during a rolling update keep reading their own.
 */
export const RECORD_SHAPE_VERSION = 2;

/** `v<RECORD_SHAPE_VERSION>:<key>`. */
export const shapeKey = (key: string): string => `v${RECORD_SHAPE_VERSION}:${key}`;

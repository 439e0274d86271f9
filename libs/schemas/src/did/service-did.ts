import { z } from 'zod';
import { didAlias, didString } from './primitives.js';

/** GET /v2/did/issuers and GET /v2/did/verifiers: one entry per DID the service provides. */
export const serviceDidEntrySchema = z
  .object({ alias: didAlias, did: didString })
  .meta({ title: 'ServiceDidEntry' });
export type ServiceDidEntry = z.infer<typeof serviceDidEntrySchema>;

export const serviceDidListSchema = z
  .array(serviceDidEntrySchema)
  .meta({ title: 'ServiceDidList' });
export type ServiceDidList = z.infer<typeof serviceDidListSchema>;

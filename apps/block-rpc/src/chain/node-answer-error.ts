import { InternalError } from '@itp/errors';

/** The node answered, but not with the shape the Ethereum JSON-RPC spec gives (code "500"). */
export class NodeAnswerError extends InternalError {
  constructor(what: string, field: string) {
    super(`The chain node sent a malformed ${what} (field ${field})`);
  }
}

/**
 * The indexer's lease was taken over by another replica (it expired): the write was rolled back.
 * An internal signal between the index store and the indexer, never answered to a client.
 */
export class LeaseLostError extends Error {
  constructor() {
    super('index lease lost to another replica');
    this.name = 'LeaseLostError';
  }
}

/** An @owf/mdoc operation this profile does not use (HAIP: ES256 device signatures, no MAC). */
export class UnsupportedMdocOperationError extends Error {
  constructor(operation: string) {
    super(`mdoc: ${operation} is not supported (HAIP presentations use ES256 device signatures)`);
    this.name = 'UnsupportedMdocOperationError';
  }
}

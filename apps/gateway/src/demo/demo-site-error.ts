/** A failure of the demo site's server side, with the HTTP status the demo API answers. */
export class DemoSiteError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'DemoSiteError';
  }
}

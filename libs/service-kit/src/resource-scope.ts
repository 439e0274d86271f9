import type { Logger } from './logger.js';

type Close = () => Promise<unknown> | unknown;

/**
 * The resources an app opens at start (stores, chain clients, data sources), each registered for
 * shutdown at the moment it is opened — the way Fastify plugins register `onClose` next to what
 * they open. `closeAll()` closes them in reverse order; every close runs even when another throws
 * (a failure is logged, never skips the rest). defineApp closes the scope when a start fails and
 * when the service shuts down, so a failed migration never leaks an open database.
 */
export class ResourceScope {
  private readonly closers: Array<{ name: string; close: Close }> = [];
  private closing: Promise<void> | undefined;

  constructor(private readonly logger?: Logger) {}

  /** Opens a resource and registers how to close it; nothing is registered when opening fails. */
  async open<T>(
    name: string,
    open: () => T | Promise<T>,
    close: (resource: T) => unknown,
  ): Promise<T> {
    if (this.closing) throw new Error(`cannot open ${name}: the scope is closing`);
    const resource = await open();
    this.closers.push({ name, close: () => close(resource) });
    return resource;
  }

  /** Registers a close for something opened elsewhere. */
  onClose(name: string, close: Close): void {
    this.closers.push({ name, close });
  }

  /** Closes everything opened, newest first; resolves when every close has run. */
  closeAll(): Promise<void> {
    this.closing ??= this.doClose();
    return this.closing;
  }

  private async doClose(): Promise<void> {
    for (const { name, close } of this.closers.splice(0).reverse()) {
      try {
        await close();
      } catch (err) {
        this.logger?.error({ err, resource: name }, 'closing a resource failed');
      }
    }
  }
}

import type { Authenticated, LoginMethod } from './login-method.js';

/**
 * The login methods this service offers (ADR 0028): each feature's wiring registers its own; the
 * OpenID Connect login page shows the ways in that are registered.
 */
export class LoginMethods {
  private readonly methods = new Map<string, LoginMethod<never, Authenticated>>();

  register(method: LoginMethod<never, Authenticated>): this {
    if (this.methods.has(method.id)) throw new Error(`login method ${method.id} registered twice`);
    this.methods.set(method.id, method);
    return this;
  }

  /** Whether the method `id` is offered (registered). */
  offers(id: string): boolean {
    return this.methods.has(id);
  }

  /** The ids of the offered methods, in registration order. */
  ids(): string[] {
    return [...this.methods.keys()];
  }
}

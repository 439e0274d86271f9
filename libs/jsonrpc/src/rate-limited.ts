import type { RpcMethod } from './method.js';

/** What counts the calls: throws (a BaseError, e.g. 429) when one may not run. */
export interface CallLimiter<L> {
  take(limit: L, client: string | undefined): Promise<void>;
}

/**
 * Wraps the handlers of the limited methods: each call (each call of a batch too) is counted for
 * the client address of its HTTP request (`ctx.clientIp`) before it runs; over the limit the
 * limiter's error is the call's service error (e.g. "429") and the method does not run. Methods
 * without a limit are unchanged. The limiter is @itp/stores' RateLimiter in the apps.
 */
export function rateLimitedMethods<L>(
  methods: RpcMethod[],
  limiter: CallLimiter<L>,
  limits: Record<string, L>,
): RpcMethod[] {
  return methods.map((method) => {
    const limit = limits[method.name];
    if (!limit) return method;
    return {
      ...method,
      handler: async (params, ctx) => {
        await limiter.take(limit, ctx.clientIp);
        return method.handler(params, ctx);
      },
    };
  });
}

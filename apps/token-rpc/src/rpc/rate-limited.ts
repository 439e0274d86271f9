import type { RpcMethod } from '@itp/jsonrpc';
import type { RateLimit, RateLimiter } from '../rate-limit/rate-limiter.js';

/**
 * Wraps the handlers of the limited methods: each call (each call of a batch too) is counted for
 * the client address of its HTTP request (`ctx.clientIp`) before it runs; over the limit it is
 * the service error "429" and the method does not run. Methods without a limit are unchanged.
 */
export function rateLimited(
  methods: RpcMethod[],
  limiter: RateLimiter,
  limits: Record<string, RateLimit>,
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

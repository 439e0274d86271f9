import type { Router } from 'express';
import type { HttpService } from '@itp/service-kit';

/** A router and where it is mounted. */
export interface MountedRouter {
  path: string;
  router: Router;
}

/**
 * What a feature's wire-<feature>.ts hands app.ts besides its domain parts: its routes (mounted
 * in order on the public listener, or on the internal one) and its hooks on the built service.
 * What it opens or starts it registers with the ResourceScope it was given (closed on shutdown).
 */
export interface FeatureEdge {
  routes: readonly MountedRouter[];
  internalRoutes?: readonly MountedRouter[];
  /** Runs once the HttpService exists (its metrics registry). */
  attach?(service: HttpService): void;
}

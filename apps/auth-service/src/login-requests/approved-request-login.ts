import type { Client } from '../clients/client.js';
import type { Authenticated, FailureLimit, LoginMethod } from '../login/login-method.js';
import type { LoginRequests } from './login-requests.js';

/** A site's collection of its web-site login request (auth-user-result-by-app, the QR poll). */
export interface RequestCollection {
  client: Client;
  requestId: string;
}

/**
 * The web-site login request approved on the phone (`app`, auth-user-with-vp with its requestId)
 * or by an OpenID4VP wallet (`vp`), collected once by the site that opened it: a LoginMethod
 * whose `amr` is its approval's. Nothing is counted (the sites' polls have their own throttle):
 * LoginRequestPendingError (401) while pending, LoginRequestUnknownError (400) when over.
 */
export class ApprovedRequestLogin implements LoginMethod<RequestCollection> {
  readonly id = 'app';
  readonly amr = 'app';

  constructor(private readonly loginRequests: LoginRequests) {}

  async failureLimits(): Promise<readonly FailureLimit[]> {
    return [];
  }

  async authenticate({ client, requestId }: RequestCollection): Promise<Authenticated> {
    const approval = await this.loginRequests.takeApproval(client, requestId);
    return {
      userId: approval.userId,
      amr: approval.method,
      evidence: approval.approvedAt === undefined ? {} : { approvedAt: approval.approvedAt },
    };
  }
}

/** Whether a user may still act (auth-service knows: exists and enabled). */
export interface UserStatusPort {
  /** true: the user exists and is enabled. Throws ServiceUnavailableError when nobody can tell. */
  isActive(userId: string): Promise<boolean>;
}

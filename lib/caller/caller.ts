// Who is asking, as every layer sees it: the API key's account, account user, person and roles. The handler factory
// (lib/http/handler.ts) makes one from the API key; domain services take it (docs/roles.md).

export interface Roles {
  admin: boolean;
  billing: boolean;
  broadcaster: boolean;
  communicator: boolean;
}

/** Who is asking: every request acts in the API key's account, on behalf of its account user. */
export interface Caller {
  accountId: string;
  accountUserId: string;
  /** The person behind the account user. Their profile (name) is read where it is needed, fresh. */
  userId: string;
  roles: Roles;
  apiKeyId: string;
}

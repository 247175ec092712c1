// An account user's stored fields: a leaf of the accounts folder, so people and auth can read them without
// importing account creation (lib/accounts/accounts.ts), which uses both.

export const ACCOUNT_USER_STATUSES = ['active', 'invited'] as const;
export type AccountUserStatus = (typeof ACCOUNT_USER_STATUSES)[number];

/** How a person who already existed was asked to join (kept after they accept, as history). */
export interface Invitation {
  /** The address the invitation went to. */
  email: string;
  invited_at: string;
  invited_by_account_user_id: string | null;
}

export interface AccountUserData {
  user_id: string;
  roles: { admin: boolean; billing: boolean; broadcaster: boolean; communicator: boolean };
  notification_rule_id: string | null;
  /** `invited` until a person who already had a login in another account accepts. */
  status: AccountUserStatus;
  /** Absent on account users made before invitations were recorded; null for people created with the membership. */
  invitation?: Invitation | null;
}

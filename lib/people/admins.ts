// The rules about account admins: an account always keeps one active admin, and only admins change others.
import { conflict } from '../errors.ts';
import type { AccountUserItem } from './render.ts';

export const ONLY_ADMINS = 'Only account admins can change other users';

export const isActiveAdmin = (au: AccountUserItem) => au.data.status === 'active' && au.data.roles?.admin === true;

/** Another active admin than `exceptId`, whose unchanged state the write will check; undefined when there is none. */
export function otherActiveAdmin(accountUsers: readonly AccountUserItem[], exceptId: string): AccountUserItem | undefined {
  return accountUsers.find((au) => au.id !== exceptId && isActiveAdmin(au));
}

export const lastAdmin = (accountUser: AccountUserItem, action: string) =>
  conflict(`${accountUser.prefixId} is the last admin of this account and cannot be ${action}; make another account user an admin first`);

// Users are people: one global record per person (found by any of their emails), linked to accounts
// through account users. This module holds the storage of that record, the email claims that make each
// address belong to one person, and the membership items that list a person's accounts.
// Rules and API shapes: lib/people/ and docs/people.md.

import { nowIso } from '../clock.ts';
import { getItem, getItems, queryPrefix, transact } from '../db/items.ts';
import { emailKey, membershipKey, MEMBERSHIP_SK_PREFIX, userKey } from '../db/keys.ts';
import { deleteAny, putNew, versionedPut, type TransactItem } from '../db/writes.ts';
import { newId, newPrefixId } from '../ids.ts';
import type { ConfirmationMethod } from './schema.ts';

export interface UserEmail {
  id: string;
  email: string;
  primary: boolean;
}


export interface UserPhone {
  id: string;
  prefix_id: string;
  /** E.164. */
  phone: string;
  primary: boolean;
  /** ISO 3166 alpha-2, derived from the number; null for numbers of no country (satellite, international services). */
  country: string | null;
  blocked: boolean;
  confirmation_method: ConfirmationMethod | null;
}

export interface UserItem {
  pk: string;
  sk: string;
  type: 'USER';
  id: string;
  name: string;
  time_zone: string | null;
  preferred_language: string | null;
  last_sign_in_at: string | null;
  emails: UserEmail[];
  phones: UserPhone[];
  notify_push: boolean;
  notify_email: boolean;
  notify_sms: boolean;
  notify_voice: boolean;
  /** scrypt hash (lib/ids.ts hashPassword); null for people who never got a password (SSO, operator-created admins). */
  passwordHash: string | null;
  /**
   * When the person first accepted an invitation to an account (lib/people/invitations.ts); from then on no
   * account's admin changes their profile, only they do (docs/people.md). Absent on people who never accepted one.
   */
  invitation_accepted_at?: string | null;
  version: number;
  createdAt: string;
  updatedAt: string;
}

/** A person's membership of one account. */
export interface MembershipItem {
  pk: string;
  sk: string;
  type: 'MEMBERSHIP';
  userId: string;
  accountId: string;
  accountUserId: string;
}

export async function getUser(userId: string): Promise<UserItem | undefined> {
  const item = await getItem<UserItem>(userKey(userId));
  return item?.type === 'USER' ? item : undefined;
}

/** People by id (batched reads); missing ones are left out. */
export async function getUsers(userIds: readonly string[]): Promise<Map<string, UserItem>> {
  const items = await getItems<UserItem>(userIds.map((id) => userKey(id)));
  return new Map(items.filter((item) => item.type === 'USER').map((item) => [item.id, item]));
}

/** The id of the person an email belongs to (case-insensitive). */
export async function userIdOfEmail(email: string): Promise<string | undefined> {
  return (await getItem<{ userId?: string }>(emailKey(email)))?.userId;
}

export async function findUserByEmail(email: string): Promise<UserItem | undefined> {
  const userId = await userIdOfEmail(email);
  return userId ? getUser(userId) : undefined;
}

export interface NewUserInput {
  name: string;
  /** The primary email when `emails` is not given. */
  email?: string;
  emails?: UserEmail[];
  phones?: UserPhone[];
  time_zone?: string | null;
  preferred_language?: string | null;
  notify_push?: boolean;
  notify_email?: boolean;
  notify_sms?: boolean;
  notify_voice?: boolean;
  passwordHash?: string | null;
}

/** Default channels of a new person: push and email; SMS and voice once they choose them. */
export const DEFAULT_NOTIFY = { notify_push: true, notify_email: true, notify_sms: false, notify_voice: false } as const;

export function newUserItem(input: NewUserInput): UserItem {
  const id = newId();
  const now = nowIso();
  const emails = input.emails ?? (input.email ? [{ id: newPrefixId('EMAIL'), email: input.email.trim().toLowerCase(), primary: true }] : []);
  if (emails.length === 0) throw new Error('A person needs at least one email');
  return {
    ...userKey(id),
    type: 'USER',
    id,
    name: input.name,
    time_zone: input.time_zone ?? null,
    preferred_language: input.preferred_language ?? null,
    last_sign_in_at: null,
    emails,
    phones: input.phones ?? [],
    notify_push: input.notify_push ?? DEFAULT_NOTIFY.notify_push,
    notify_email: input.notify_email ?? DEFAULT_NOTIFY.notify_email,
    notify_sms: input.notify_sms ?? DEFAULT_NOTIFY.notify_sms,
    notify_voice: input.notify_voice ?? DEFAULT_NOTIFY.notify_voice,
    passwordHash: input.passwordHash ?? null,
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
}

/** Claims an email for a person: fails when it already belongs to anyone. */
export const emailClaimWrite = (email: string, userId: string): TransactItem => putNew({ ...emailKey(email), type: 'EMAIL', userId });

/** Releases a person's email; tolerates a claim already gone, never removes someone else's. */
export const emailReleaseWrite = (email: string, userId: string): TransactItem => ({
  Delete: { Key: emailKey(email), ConditionExpression: 'attribute_not_exists(pk) OR userId = :me', ExpressionAttributeValues: { ':me': userId } },
});

/** The writes creating a person: the record and a claim of each email. */
export function userCreateWrites(user: UserItem): TransactItem[] {
  return [putNew(user), ...user.emails.map((e) => emailClaimWrite(e.email, user.id))];
}

/**
 * The writes changing a person, in one transaction: the record (only if nobody wrote since `previous` was
 * read) plus claims of added emails and releases of removed ones.
 */
export function userUpdateWrites(previous: UserItem, next: UserItem): TransactItem[] {
  const before = new Set(previous.emails.map((e) => e.email));
  const after = new Set(next.emails.map((e) => e.email));
  return [
    versionedPut(next, previous.version),
    ...[...after].filter((e) => !before.has(e)).map((e) => emailClaimWrite(e, next.id)),
    ...[...before].filter((e) => !after.has(e)).map((e) => emailReleaseWrite(e, next.id)),
  ];
}

/** The next version of a person with the given fields changed. */
export function nextUserVersion(previous: UserItem, changes: Partial<Omit<UserItem, 'pk' | 'sk' | 'type' | 'id' | 'version' | 'createdAt'>>): UserItem {
  return { ...previous, ...changes, version: previous.version + 1, updatedAt: nowIso() };
}

/** Writes a new person and claims each of its emails, failing if any email already belongs to someone. */
export async function insertUser(user: UserItem): Promise<void> {
  await transact(userCreateWrites(user));
}

/** The person with this email, created when nobody has it yet. */
export async function ensureUserForEmail(input: { name: string; email: string }): Promise<UserItem> {
  const existing = await findUserByEmail(input.email);
  if (existing) return existing;
  const user = newUserItem(input);
  await insertUser(user);
  return user;
}

// ---------------------------------------------------------------------------------------------------------------
// Memberships

/** Records that a person belongs to an account; fails when they already do. */
export function membershipCreateWrite(userId: string, accountId: string, accountUserId: string): TransactItem {
  const item: MembershipItem = { ...membershipKey(userId, accountId), type: 'MEMBERSHIP', userId, accountId, accountUserId };
  return putNew(item);
}

export const membershipDeleteWrite = (userId: string, accountId: string): TransactItem => deleteAny(membershipKey(userId, accountId));

export const findMembership = (userId: string, accountId: string): Promise<MembershipItem | undefined> =>
  getItem<MembershipItem>(membershipKey(userId, accountId));

/** Every account the person belongs to (invited or active). */
export async function listMemberships(userId: string): Promise<MembershipItem[]> {
  return queryPrefix<MembershipItem>(userKey(userId).pk, MEMBERSHIP_SK_PREFIX);
}

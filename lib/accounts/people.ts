// Users are people: one global record per person (found by any of their emails), linked to accounts
// through account users. This module holds the storage of that record.

import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { nowIso } from '../clock.ts';
import { config } from '../config.ts';
import { documentClient } from '../db/client.ts';
import { emailKey, userKey } from '../db/keys.ts';
import { newId, newPrefixId } from '../ids.ts';

export interface UserEmail {
  id: string;
  email: string;
  primary: boolean;
}

export interface UserPhone {
  id: string;
  prefix_id: string;
  phone: string;
  primary: boolean;
  country: string | null;
  blocked: boolean;
  confirmation_method: string | null;
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
  passwordHash: string | null;
  version: number;
  createdAt: string;
  updatedAt: string;
}

export async function getUser(userId: string): Promise<UserItem | undefined> {
  const result = await documentClient().send(new GetCommand({ TableName: config().tableName, Key: userKey(userId), ConsistentRead: true }));
  return result.Item as UserItem | undefined;
}

export async function findUserByEmail(email: string): Promise<UserItem | undefined> {
  const result = await documentClient().send(new GetCommand({ TableName: config().tableName, Key: emailKey(email), ConsistentRead: true }));
  const userId = result.Item?.userId as string | undefined;
  return userId ? getUser(userId) : undefined;
}

export function newUserItem(input: { name: string; email: string }): UserItem {
  const id = newId();
  const now = nowIso();
  return {
    ...userKey(id),
    type: 'USER',
    id,
    name: input.name,
    time_zone: null,
    preferred_language: null,
    last_sign_in_at: null,
    emails: [{ id: newPrefixId('EMAIL'), email: input.email.trim().toLowerCase(), primary: true }],
    phones: [],
    notify_push: true,
    notify_email: true,
    notify_sms: false,
    notify_voice: false,
    passwordHash: null,
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
}

/** Writes a new user and claims each of its emails, failing if any email already belongs to someone. */
export async function insertUser(user: UserItem): Promise<void> {
  const tableName = config().tableName;
  await documentClient().send(
    new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName: tableName, Item: user, ConditionExpression: 'attribute_not_exists(pk)' } },
        ...user.emails.map((e) => ({
          Put: { TableName: tableName, Item: { ...emailKey(e.email), userId: user.id }, ConditionExpression: 'attribute_not_exists(pk)' },
        })),
      ],
    }),
  );
}

/** The person with this email, created when nobody has it yet. */
export async function ensureUserForEmail(input: { name: string; email: string }): Promise<UserItem> {
  const existing = await findUserByEmail(input.email);
  if (existing) return existing;
  const user = newUserItem(input);
  await insertUser(user);
  return user;
}

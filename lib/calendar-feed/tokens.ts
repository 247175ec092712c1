// Calendar feed tokens: a random secret per schedule and per account user, stored only as its SHA-256, rotated in
// one transaction (the new token's lookup written, the old one's deleted, the owner's record moved on its version).
// docs/schedules.md, "Calendar feeds".
import { randomBytes } from 'node:crypto';
import { getItem, transact } from '../db/items.ts';
import { feedOwnerKey, feedTokenKey } from '../db/keys.ts';
import { changedMeanwhile, retryOnConflict } from '../db/retry.ts';
import { deleteAny, putNew, touchItem, versionedPut, type Key, type TransactItem } from '../db/writes.ts';
import { hashSecret, secretMatches } from '../ids.ts';

export type FeedKind = 'schedule' | 'person';

export interface FeedOwner {
  readonly accountId: string;
  readonly kind: FeedKind;
  /** The schedule's or the account user's canonical id. */
  readonly id: string;
}

interface TokenItem extends FeedOwner {
  pk: string;
  sk: string;
  tokenHash: string;
}

interface OwnerItem {
  pk: string;
  sk: string;
  version: number;
  tokenHash: string;
  rotatedAt: string;
}

/** 32 random bytes, base64url: the whole secret of a feed URL. */
const newFeedToken = (): string => randomBytes(32).toString('base64url');
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * A new token for the feed of `owner` (an entity read just before, whose existence the write checks): the old URL
 * stops working in the same transaction. Returns the token, shown once.
 */
export async function rotateFeedToken(owner: FeedOwner, ownerEntity: Key): Promise<string> {
  return retryOnConflict(
    async () => {
      const key = feedOwnerKey(owner.accountId, owner.kind, owner.id);
      const current = await getItem<OwnerItem>(key, { consistent: true });
      const token = newFeedToken();
      const tokenHash = hashSecret(token);
      const next: OwnerItem = { ...key, version: (current?.version ?? 0) + 1, tokenHash, rotatedAt: new Date().toISOString() };
      const writes: TransactItem[] = [
        putNew({ ...feedTokenKey(tokenHash), accountId: owner.accountId, kind: owner.kind, id: owner.id, tokenHash } satisfies TokenItem),
        current ? versionedPut(next, current.version) : putNew(next),
        touchItem(ownerEntity),
      ];
      if (current) writes.push(deleteAny(feedTokenKey(current.tokenHash)));
      await transact(writes);
      return token;
    },
    { exhausted: changedMeanwhile('The calendar feed') },
  );
}

/** Whose feed a token opens; undefined for a token that is malformed, unknown or rotated away. */
export async function feedOwnerOf(token: string): Promise<FeedOwner | undefined> {
  if (!TOKEN_SHAPE.test(token)) return undefined;
  const item = await getItem<TokenItem>(feedTokenKey(hashSecret(token)), { consistent: true });
  if (!item || !secretMatches(token, item.tokenHash)) return undefined;
  return { accountId: item.accountId, kind: item.kind, id: item.id };
}

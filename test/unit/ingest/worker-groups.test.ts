import type { SQSRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { recordsByGroup } from '#functions/worker.ts';

const record = (messageId: string, group?: string) => ({ messageId, attributes: group === undefined ? {} : { MessageGroupId: group } }) as unknown as SQSRecord;

describe('recordsByGroup', () => {
  it('splits a batch by message group, keeping each group in the order delivered', () => {
    const batch = [record('1', 'a'), record('2', 'b'), record('3', 'a'), record('4', 'c'), record('5', 'b'), record('6', 'a')];
    expect(recordsByGroup(batch).map((group) => group.map((r) => r.messageId))).toEqual([['1', '3', '6'], ['2', '5'], ['4']]);
  });

  it('records without a group form one group', () => {
    expect(recordsByGroup([record('1'), record('2')]).map((group) => group.map((r) => r.messageId))).toEqual([['1', '2']]);
  });
});

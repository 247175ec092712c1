// The single DynamoDB table, built from the key schema the local runtime uses (lib/db/table.ts), and the
// two levels of access Lambdas get to it. Grants name their actions and resources one by one (the table
// and each index), so no policy holds a wildcard action or an `index/*` resource.

import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, Table, TableEncryption, type WarmThroughput } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, type IGrantable } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { GSIS, KEY, TTL_ATTRIBUTE } from '../lib/db/table.ts';

/** Item reads. TransactGetItems needs dynamodb:GetItem only. Scan is left out on purpose (single-table design). */
export const TABLE_READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'] as const;

/**
 * Item writes. TransactWriteItems has no action of its own: it needs the action of each write it holds,
 * and dynamodb:ConditionCheckItem for its condition checks.
 */
export const TABLE_WRITE_ACTIONS = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:ConditionCheckItem',
] as const;

export interface HarkTableProps {
  readonly deletionProtection: boolean;
  /** Pre-warmed units a second of the table and of each index (an index takes a create's writes too); unset: DynamoDB's own. */
  readonly warmThroughput?: WarmThroughput | undefined;
}

export class HarkTable extends Construct {
  readonly table: Table;

  constructor(scope: Construct, id: string, props: HarkTableProps) {
    super(scope, id);
    this.table = new Table(this, 'Table', {
      partitionKey: { name: KEY.pk, type: AttributeType.STRING },
      sortKey: { name: KEY.sk, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: TTL_ATTRIBUTE,
      encryption: TableEncryption.AWS_MANAGED,
      // The table holds every account's data: it outlives the stack and is never replaced by accident.
      removalPolicy: RemovalPolicy.RETAIN,
      deletionProtection: props.deletionProtection,
      ...(props.warmThroughput ? { warmThroughput: props.warmThroughput } : {}),
    });
    for (const gsi of GSIS) {
      this.table.addGlobalSecondaryIndex({
        indexName: gsi.name,
        partitionKey: { name: gsi.pk, type: AttributeType.STRING },
        sortKey: { name: gsi.sk, type: AttributeType.STRING },
        projectionType: ProjectionType.ALL,
        ...(props.warmThroughput ? { warmThroughput: props.warmThroughput } : {}),
      });
    }
  }

  get tableName(): string {
    return this.table.tableName;
  }

  /** ARNs of the indexes, one by one. */
  indexArns(): string[] {
    return GSIS.map((gsi) => `${this.table.tableArn}/index/${gsi.name}`);
  }

  /** Reads items of the table and queries it and its indexes. */
  grantReadItems(grantee: IGrantable): void {
    grantee.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({ actions: [...TABLE_READ_ACTIONS], resources: [this.table.tableArn] }),
    );
    grantee.grantPrincipal.addToPrincipalPolicy(new PolicyStatement({ actions: ['dynamodb:Query'], resources: this.indexArns() }));
  }

  /** Reads as above, and writes items (including transactions and conditional writes). */
  grantReadWriteItems(grantee: IGrantable): void {
    this.grantReadItems(grantee);
    grantee.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({ actions: [...TABLE_WRITE_ACTIONS], resources: [this.table.tableArn] }),
    );
  }
}

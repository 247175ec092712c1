// Inbound mail for email integrations (docs/monitors.md, "Email"), created only with `hark:inboundEmailDomain`: an
// SES receipt rule set for the domain whose rule stores each raw message in an S3 bucket (encrypted, TLS only, no
// public access, access-logged, kept 30 days) and then invokes the email Lambda, which queues it like a webhook.
import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership, type CfnBucket } from 'aws-cdk-lib/aws-s3';
import { ReceiptRuleSet, TlsPolicy } from 'aws-cdk-lib/aws-ses';
import { Lambda as LambdaAction, LambdaInvocationType, S3 as S3Action } from 'aws-cdk-lib/aws-ses-actions';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { S3_SERVER_ACCESS_LOGS_USE_BUCKET_POLICY } from 'aws-cdk-lib/cx-api';
import { Construct } from 'constructs';
import { INBOUND_MAIL_PREFIX } from '../lib/queue/inbound-mail.ts';
import type { HarkFunction } from './lambda.ts';

/** Raw messages are kept this long for inspection, then S3 removes them. */
export const INBOUND_MAIL_RETENTION_DAYS = 30;

export interface InboundEmailProps {
  readonly domain: string;
  /** The email Lambda (functions/email.ts). */
  readonly handler: HarkFunction;
}

export class InboundEmail extends Construct {
  readonly bucket: Bucket;
  readonly ruleSet: ReceiptRuleSet;

  constructor(scope: Construct, id: string, props: InboundEmailProps) {
    super(scope, id);
    // S3 delivers the access logs under a bucket policy for its logging service, not the legacy log-delivery ACL (which
    // cfn-lint flags, W3045): ACLs stay disabled on both buckets.
    this.node.setContext(S3_SERVER_ACCESS_LOGS_USE_BUCKET_POLICY, true);
    const accessLogs = new Bucket(this, 'AccessLogs', {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      lifecycleRules: [{ expiration: Duration.days(INBOUND_MAIL_RETENTION_DAYS) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.bucket = new Bucket(this, 'Messages', {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      serverAccessLogsBucket: accessLogs,
      serverAccessLogsPrefix: 'messages/',
      lifecycleRules: [{ expiration: Duration.days(INBOUND_MAIL_RETENTION_DAYS) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    // GetObject only, on the messages SES writes. Their keys are SES message ids, known only when mail arrives, hence
    // the one wildcard, acknowledged to cdk-nag with that reason.
    const read = new PolicyStatement({ actions: ['s3:GetObject'], resources: [this.bucket.arnForObjects(`${INBOUND_MAIL_PREFIX}*`)] });
    props.handler.function.addToRolePolicy(read);
    const bucketId = Stack.of(this).resolve(Stack.of(this).getLogicalId(this.bucket.node.defaultChild as CfnBucket)) as string;
    Validations.of(props.handler.role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/${INBOUND_MAIL_PREFIX}*]`,
      reason: 'The email Lambda reads the raw messages SES stores under inbound/<SES message id>; the ids are known only when mail arrives.',
    });
    props.handler.function.addEnvironment('HARK_INBOUND_EMAIL_BUCKET', this.bucket.bucketName);

    // The rule set must be made the active one in SES (one per region): docs/deploy.md says how.
    this.ruleSet = new ReceiptRuleSet(this, 'Rules', {
      rules: [
        {
          recipients: [props.domain],
          scanEnabled: true,
          tlsPolicy: TlsPolicy.REQUIRE,
          actions: [
            new S3Action({ bucket: this.bucket, objectKeyPrefix: INBOUND_MAIL_PREFIX }),
            new LambdaAction({ function: props.handler.function, invocationType: LambdaInvocationType.EVENT }),
          ],
        },
      ],
    });
  }
}

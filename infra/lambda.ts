// One Hark Lambda: a NodejsFunction bundled locally by esbuild from `functions/<name>.ts`, with its own
// log group and its own role. The role starts with nothing but write access to that log group (no
// AWSLambdaBasicExecutionRole, which would allow creating any log group); the stack adds data access.

import { CfnResource, Lazy, RemovalPolicy, type Duration } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, LoggingFormat, Runtime, type CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { join, resolve } from 'node:path';

/** The repository root: where package.json, package-lock.json and functions/ live. */
export const PROJECT_ROOT = resolve(import.meta.dirname, '..');
export const FUNCTIONS_DIR = join(PROJECT_ROOT, 'functions');

export const LAMBDA_RUNTIME = Runtime.NODEJS_24_X;
export const LAMBDA_ARCHITECTURE = Architecture.ARM_64;
/**
 * Left out of every bundle: the nodejs24.x runtime provides the AWS SDK for JavaScript v3 (importable from ES modules).
 * Bundle mode gives the bundles the same and nothing else (lib/local/runtime-modules.ts; test/infra checks they agree).
 */
export const EXTERNAL_MODULES: readonly string[] = ['@aws-sdk/*'];

/**
 * Bundled as ESM (middy 7 is ESM-only). CommonJS dependencies inside an ESM bundle cannot call `require`
 * for Node built-ins, so the banner gives the bundle a real `require`.
 */
export const ESM_REQUIRE_BANNER =
  "import { createRequire as __harkCreateRequire } from 'node:module'; const require = __harkCreateRequire(import.meta.url);";

export interface HarkFunctionProps {
  /** The handler module `functions/<name>.ts`, exporting `handler`. */
  readonly name: string;
  readonly description: string;
  readonly memoryMb: number;
  readonly timeout: Duration;
  readonly logRetention: RetentionDays;
  readonly environment: Record<string, string>;
  /** Where the handler modules live (default: the repository's functions/). */
  readonly functionsDir?: string;
}

export class HarkFunction extends Construct {
  readonly function: NodejsFunction;
  readonly role: Role;
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: HarkFunctionProps) {
    super(scope, id);

    this.logGroup = new LogGroup(this, 'Logs', {
      retention: props.logRetention,
      // Generated name, so a teardown and redeploy never collides with a leftover group.
      removalPolicy: RemovalPolicy.DESTROY,
    });

    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Hark ${props.name} Lambda`,
    });
    this.logGroup.grantWrite(this.role);

    this.function = new NodejsFunction(this, 'Function', {
      entry: join(props.functionsDir ?? FUNCTIONS_DIR, `${props.name}.ts`),
      handler: 'handler',
      description: props.description,
      runtime: LAMBDA_RUNTIME,
      architecture: LAMBDA_ARCHITECTURE,
      memorySize: props.memoryMb,
      timeout: props.timeout,
      role: this.role,
      logGroup: this.logGroup,
      loggingFormat: LoggingFormat.JSON,
      environment: {
        POWERTOOLS_SERVICE_NAME: 'hark',
        // Stack traces point into the TypeScript sources instead of the minified bundle.
        NODE_OPTIONS: '--enable-source-maps',
        ...props.environment,
      },
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
      bundling: {
        format: OutputFormat.ESM,
        target: 'node24',
        // Prefer the ESM build of dual packages: better tree shaking, fewer CommonJS wrappers.
        mainFields: ['module', 'main'],
        banner: ESM_REQUIRE_BANNER,
        minify: true,
        sourceMap: true,
        // The map only has to translate stack traces; the sources themselves stay out of the package.
        sourcesContent: false,
        externalModules: [...EXTERNAL_MODULES],
      },
    });
    dropRedundantRoleDependency(this.function.node.defaultChild as CfnFunction, this.role.node.defaultChild as CfnResource);
  }
}

/**
 * CDK makes a function depend on its role and the role's policy. The function names the role's ARN, so CloudFormation
 * orders them already and cfn-lint calls the role's entry redundant (W3005); the policy's stays (the grants exist before
 * the function and its event source mapping). Read when the template is written, after every dependency is known.
 */
function dropRedundantRoleDependency(fn: CfnFunction, role: CfnResource): void {
  fn.addOverride(
    'DependsOn',
    Lazy.any({
      produce: () => {
        const others = fn.obtainDependencies().filter((d): d is CfnResource => d instanceof CfnResource && d !== role);
        return others.length > 0 ? others.map((d) => d.logicalId) : undefined;
      },
    }),
  );
}

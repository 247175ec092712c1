// The CDK app (cdk.json: `node infra/app.ts`, run by Node 24 with type stripping: erasable TypeScript only).
// Settings come from context (docs/deploy.md). cdk-nag's AwsSolutions pack checks every synth; a finding
// that is neither fixed nor acknowledged with a reason fails it.

import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { settingsFromContext } from './settings.ts';
import { HarkStack } from './stack.ts';

const app = new App();
const settings = settingsFromContext(app.node);
// Environment-agnostic: `cdk deploy` targets the account and region of the current AWS credentials.
new HarkStack(app, settings.stackName, { stackName: settings.stackName, settings });
Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
app.synth();

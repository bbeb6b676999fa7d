import { App, type AppProps, Aspects, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { JustifiedIamFindings } from './nag-wildcards.ts';
import { readSettings, type Settings } from './settings.ts';
import { ApiStack } from './stacks/api.ts';
import { DatabaseStack } from './stacks/database.ts';
import { PipelineStack } from './stacks/pipeline.ts';
import { documentsBucketName, StorageStack } from './stacks/storage.ts';
import { WebStack } from './stacks/web.ts';

export interface DropQaApp {
  app: App;
  settings: Settings;
  storage: StorageStack;
  database: DatabaseStack;
  pipeline: PipelineStack;
  api: ApiStack;
  web: WebStack;
}

/**
 * The whole deployment: storage, database, pipeline, api and web stacks, checked by cdk-nag's
 * AwsSolutions pack at synthesis. Tests pass `context` (e.g. no bundling) and settings overrides.
 *
 * @example buildApp().app.synth()
 */
export function buildApp(
  props: AppProps = {},
  overrides: Partial<Record<keyof Settings, unknown>> = {},
  options: { checks?: boolean } = {},
): DropQaApp {
  const app = new App(props);
  const settings = readSettings(app, overrides);
  const env =
    settings.region || settings.account ? { region: settings.region, account: settings.account } : undefined;
  const prefix = settings.stackPrefix;
  const common = { env, settings };
  const storage = new StorageStack(app, `${prefix}Storage`, common);
  const database = new DatabaseStack(app, `${prefix}Database`, common);
  const bucketName = documentsBucketName(settings);
  const pipeline = new PipelineStack(app, `${prefix}Pipeline`, {
    ...common,
    bucketName,
    database,
  });
  const api = new ApiStack(app, `${prefix}Api`, {
    ...common,
    bucketName,
    database,
    stateMachine: pipeline.stateMachine,
  });
  // Referred to by name, so the order is stated rather than implied by an export.
  pipeline.addStackDependency(storage);
  api.addStackDependency(storage);
  const web = new WebStack(app, `${prefix}Web`, {
    env,
    functionUrl: api.url,
    auth: {
      type: 'cognito',
      region: api.region,
      userPoolId: api.userPool.userPoolId,
      clientId: api.userPoolClient.userPoolClientId,
    },
  });
  // Tests that only need a template skip the checks (the template tests run them).
  if (options.checks !== false) {
    Aspects.of(app).add(new JustifiedIamFindings());
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  }
  return { app, settings, storage, database, pipeline, api, web };
}

import { Template } from 'aws-cdk-lib/assertions';
import { buildApp, type DropQaApp } from '../../../infra/build-app.ts';

export interface Synthesized {
  built: DropQaApp;
  storage: Template;
  database: Template;
  pipeline: Template;
  api: Template;
  web: Template;
}

/**
 * The whole app, synthesized once (cdk-nag included unless `checks` is false: synthesis throws on an
 * unacknowledged finding) without bundling: `aws:cdk:bundling-stacks` empty leaves every function's
 * code a placeholder, so no esbuild runs in tests. The CDK's built-in CloudFormation linter (a WASM
 * engine, ~15 s here, warnings only) is left to `cdk synth`.
 */
export function synthesizeApp(options: { checks?: boolean } = {}): Synthesized {
  const built = buildApp(
    { context: { 'aws:cdk:bundling-stacks': [] }, builtinCloudFormationValidation: false },
    {},
    options,
  );
  built.app.synth();
  return {
    built,
    storage: Template.fromStack(built.storage),
    database: Template.fromStack(built.database),
    pipeline: Template.fromStack(built.pipeline),
    api: Template.fromStack(built.api),
    web: Template.fromStack(built.web),
  };
}

/** The deployed state machine's definition, with the substitutions left as `${NameArn}`. */
export function deployedDefinition(pipeline: Template): Record<string, unknown> {
  const machines = Object.values(pipeline.findResources('AWS::StepFunctions::StateMachine'));
  const properties = machines[0]?.Properties as { DefinitionString: unknown };
  if (typeof properties.DefinitionString !== 'string')
    throw new Error('DefinitionString is not a plain string');
  return JSON.parse(properties.DefinitionString) as Record<string, unknown>;
}

import { buildApp } from './build-app.ts';

// `npx cdk synth` / `npx cdk deploy` run this (cdk.json); settings come from CDK context.
buildApp().app.synth();

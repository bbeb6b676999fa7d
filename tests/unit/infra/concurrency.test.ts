import { Match, Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../../infra/build-app.ts';
import type { Settings } from '../../../infra/settings.ts';

/** The app's templates with the given settings (no bundling, no checks: the shape only). */
function templates(overrides: Partial<Record<keyof Settings, unknown>>) {
  const built = buildApp(
    { context: { 'aws:cdk:bundling-stacks': [] }, builtinCloudFormationValidation: false },
    overrides,
    { checks: false },
  );
  return { api: Template.fromStack(built.api), pipeline: Template.fromStack(built.pipeline) };
}
const api = (overrides: Partial<Record<keyof Settings, unknown>>) => templates(overrides).api;
const text = (value: unknown) => JSON.stringify(value);

describe('the ask function’s concurrency', () => {
  it('is reserved only when askConcurrency asks for it (from -c, a string)', () => {
    const reserved = Object.values(api({ askConcurrency: '25' }).findResources('AWS::Lambda::Function')).map(
      (fn) => fn.Properties.ReservedConcurrentExecutions,
    );
    expect(reserved).toContain(25);
    const unreserved = Object.values(api({}).findResources('AWS::Lambda::Function')).map(
      (fn) => fn.Properties.ReservedConcurrentExecutions,
    );
    expect(unreserved.filter((n) => n !== undefined)).toEqual([]);
  });
});

describe('ingestion executions calling Bedrock at once', () => {
  const { pipeline } = templates({});
  const [queueId] = Object.entries(pipeline.findResources('AWS::SQS::Queue')).find(([id]) =>
    id.startsWith('IngestQueue'),
  ) ?? [''];

  it("puts the bucket's object events in a queue, not straight into the ingest function", () => {
    const rules = Object.values(pipeline.findResources('AWS::Events::Rule')).filter(
      (rule) => rule.Properties.EventPattern.source?.[0] === 'aws.s3',
    );
    expect(rules).toHaveLength(2);
    for (const rule of rules) {
      const [target] = rule.Properties.Targets;
      expect(target.Arn).toEqual({ 'Fn::GetAtt': [queueId, 'Arn'] });
      expect(target.DeadLetterConfig).toBeDefined();
    }
    // Events that keep failing end in the dead-letter queue; waiting for a slot never counts.
    pipeline.hasResourceProperties('AWS::SQS::Queue', {
      RedrivePolicy: { deadLetterTargetArn: Match.anyValue(), maxReceiveCount: 5 },
      MessageRetentionPeriod: 14 * 24 * 3600,
    });
  });

  it('drains the queue with two pollers at most, starting at most pipelineConcurrency (default 2) executions', () => {
    pipeline.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [queueId, 'Arn'] },
      BatchSize: 10,
      ScalingConfig: { MaximumConcurrency: 2 },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    pipeline.hasResourceProperties('AWS::Lambda::Function', {
      Environment: {
        Variables: Match.objectLike({ PIPELINE_CONCURRENCY: '2', INGEST_QUEUE_URL: { Ref: queueId } }),
      },
    });
    const set = templates({ pipelineConcurrency: '10' }).pipeline;
    set.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ PIPELINE_CONCURRENCY: '10' }) },
    });
  });

  it('lets the ingest function count running executions and send an event back to wait', () => {
    const statements = Object.entries(pipeline.findResources('AWS::IAM::Policy'))
      .filter(([id]) => id.startsWith('IngestServiceRoleDefaultPolicy'))
      .flatMap(
        ([, p]) =>
          p.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[],
      );
    const on = (action: string) =>
      statements.filter((s) => [s.Action].flat().includes(action)).map((s) => text(s.Resource));
    const machine = Object.keys(pipeline.findResources('AWS::StepFunctions::StateMachine'))[0];
    expect(on('states:ListExecutions')).toEqual([text({ Ref: machine })]);
    expect(on('sqs:SendMessage')).toContain(text({ 'Fn::GetAtt': [queueId, 'Arn'] }));
  });
});

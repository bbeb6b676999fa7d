import { describe, expect, it } from 'vitest';
import type { WireRequest } from '../../fakes/aws-front.ts';
import { synthesizeApp } from '../../unit/infra/synth.ts';
import { bucketPolicies, deniedCalls, describeDenial, functionRole } from './iam/role-simulation.ts';
import { type CfnTemplate, TemplateValues } from './iam/template-values.ts';
import { iamCalls } from './iam/wire-calls.ts';

const BUCKET = 'dropqa-documents-123456789012-us-east-1';
const request = (r: Partial<WireRequest>): WireRequest => ({
  caller: 'Activate',
  service: 's3',
  region: 'us-east-1',
  method: 'GET',
  path: '/',
  query: {},
  headers: {},
  body: '',
  ...r,
});
const brief = (r: Partial<WireRequest>) => iamCalls(request(r)).map((c) => `${c.action} ${c.resource}`);

describe('the IAM authorizations of recorded requests', () => {
  it('maps S3 requests to object and bucket ARNs, one DeleteObject per key of a DeleteObjects', () => {
    expect(
      brief({ method: 'HEAD', path: `/${BUCKET}/team/a b.md`, query: { 'x-id': 'HeadObject' } }),
    ).toEqual([`s3:GetObject arn:aws:s3:::${BUCKET}/team/a b.md`]);
    const list = iamCalls(
      request({ path: `/${BUCKET}`, query: { 'list-type': '2', prefix: 'documents/x/' } }),
    );
    expect(list).toMatchObject([{ action: 's3:ListBucket', context: { 's3:prefix': 'documents/x/' } }]);
    const body =
      '<Delete><Object><Key>documents/x/v2/a.md</Key></Object><Object><Key>documents/x/v2/b&amp;c.png</Key></Object></Delete>';
    expect(brief({ method: 'POST', path: `/${BUCKET}`, query: { delete: '' }, body })).toEqual([
      `s3:DeleteObject arn:aws:s3:::${BUCKET}/documents/x/v2/a.md`,
      `s3:DeleteObject arn:aws:s3:::${BUCKET}/documents/x/v2/b&c.png`,
    ]);
    expect(() => brief({ method: 'PUT', path: `/${BUCKET}`, query: { cors: '' } })).toThrow(
      /unmapped S3 request/,
    );
  });

  it('maps a Data API call to the cluster and its secret, Converse on a global profile to three resources', () => {
    const body = JSON.stringify({ resourceArn: 'arn:cluster', secretArn: 'arn:secret', sql: 'SELECT 1' });
    expect(brief({ service: 'rds-data', method: 'POST', path: '/Execute', body })).toEqual([
      'rds-data:ExecuteStatement arn:cluster',
      'secretsmanager:GetSecretValue arn:secret',
    ]);
    expect(
      brief({ service: 'bedrock', method: 'POST', path: '/model/global.anthropic.claude-x/converse-stream' }),
    ).toEqual([
      'bedrock:InvokeModelWithResponseStream arn:aws:bedrock:us-east-1:123456789012:inference-profile/global.anthropic.claude-x',
      'bedrock:InvokeModelWithResponseStream arn:aws:bedrock:us-east-1::foundation-model/anthropic.claude-x',
      'bedrock:InvokeModelWithResponseStream arn:aws:bedrock:::foundation-model/anthropic.claude-x',
    ]);
    expect(() => brief({ service: 'sns', path: '/' })).toThrow(/unmapped sns request/);
  });

  it("evaluates calls against the synthesized roles: Activate and MarkFailed may delete a version's files, Register may not", async () => {
    const synthesized = synthesizeApp({ checks: false });
    const values = new TemplateValues(
      Object.fromEntries(
        (['storage', 'database', 'pipeline', 'api', 'web'] as const).map((s) => [
          s,
          synthesized[s].toJSON() as CfnTemplate,
        ]),
      ),
    );
    const discard = (caller: string) =>
      iamCalls(
        request({
          caller,
          method: 'POST',
          path: `/${BUCKET}`,
          query: { delete: '' },
          body: '<Delete><Object><Key>documents/x/v2/content.md</Key></Object></Delete>',
        }),
      );
    const denied = await deniedCalls(
      ['Activate', 'MarkFailed', 'Register'].flatMap(discard),
      (caller) => functionRole(values, 'pipeline', caller),
      bucketPolicies(values),
    );
    expect(denied.map(describeDenial)).toEqual([
      `pipeline/Register may not s3:DeleteObject on arn:aws:s3:::${BUCKET}/documents/x/v2/content.md (S3 DeleteObjects): ImplicitlyDenied`,
    ]);
  });
});

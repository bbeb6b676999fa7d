import { credentialScope, type WireRequest } from '../../../fakes/aws-front.ts';
import type { RecordedRequest } from '../../../fakes/index.ts';
import { DEPLOYMENT } from './template-values.ts';

/** One authorization AWS makes for a request: the caller's role must allow `action` on `resource`. */
export interface IamCall {
  /** The function that made it (the access key id its container signs with). */
  caller: string;
  action: string;
  resource: string;
  /** Condition keys AWS sets for it (`s3:prefix`, `bedrock:InferenceProfileArn`, ...). */
  context: Record<string, string>;
  /** The API operation, for messages (`S3 DeleteObjects`). */
  operation: string;
}

/**
 * The IAM authorizations a recorded request needs, as AWS's service authorization reference lists
 * them: S3 by method, path and sub-resource (object and bucket ARNs, `s3:prefix` on a listing, one
 * DeleteObject per key of a DeleteObjects); the Data API's operation on the cluster plus
 * `secretsmanager:GetSecretValue` on the secret it reads with the caller's credentials; Step
 * Functions and Textract by `X-Amz-Target`; Bedrock by path (see `bedrockCalls`). A request it cannot
 * map is an error naming it: a new kind of call must be mapped, not skipped.
 */
export function iamCalls(request: WireRequest): IamCall[] {
  const map = MAPPERS[request.service];
  if (!map)
    throw new Error(
      `unmapped ${request.service} request ${request.method} ${request.path} from ${request.caller}`,
    );
  return map(request).map((call) => ({
    caller: request.caller,
    ...call,
    context: { 'aws:SecureTransport': 'true', 'aws:RequestedRegion': request.region, ...call.context },
  }));
}

type Mapped = Omit<IamCall, 'caller'>;
const call = (operation: string, action: string, resource: string, context: Record<string, string> = {}) => ({
  operation,
  action,
  resource,
  context,
});
const json = (request: WireRequest): Record<string, unknown> =>
  request.body ? JSON.parse(request.body) : {};
/** `AWSStepFunctions.StartExecution` -> `StartExecution`. */
const targetOperation = (request: WireRequest) =>
  request.headers['x-amz-target']?.split('.').at(-1) ?? '(no target)';

const MAPPERS: Record<string, (request: WireRequest) => Mapped[]> = {
  s3: s3Calls,
  'rds-data': (request) => {
    const operation = DATA_API[request.path];
    if (!operation) throw new Error(`unmapped Data API path ${request.path}`);
    const { resourceArn, secretArn } = json(request) as { resourceArn: string; secretArn: string };
    return [
      call(`RDS Data ${operation}`, `rds-data:${operation}`, resourceArn),
      call(`RDS Data ${operation}`, 'secretsmanager:GetSecretValue', secretArn),
    ];
  },
  states: (request) => {
    const operation = targetOperation(request);
    const body = json(request) as { stateMachineArn?: string; executionArn?: string };
    return [
      call(
        `Step Functions ${operation}`,
        `states:${operation}`,
        body.stateMachineArn ?? body.executionArn ?? '*',
      ),
    ];
  },
  // The JSON protocol; a queue URL names its account and name.
  sqs: (request) => {
    const operation = targetOperation(request);
    const url = String(json(request).QueueUrl ?? '');
    const [, region, account, name] = /^https?:\/\/sqs\.([^.]+)\.[^/]+\/(\d+)\/([^/?]+)/.exec(url) ?? [];
    if (!name) throw new Error(`unmapped SQS request ${operation} on ${url}`);
    return [
      call(
        `SQS ${operation}`,
        `sqs:${operation}`,
        `arn:${DEPLOYMENT.partition}:sqs:${region}:${account}:${name}`,
      ),
    ];
  },
  // Textract has no resource-level permissions.
  textract: (request) => [
    call(`Textract ${targetOperation(request)}`, `textract:${targetOperation(request)}`, '*'),
  ],
  bedrock: bedrockCalls,
};

const DATA_API: Record<string, string> = {
  '/Execute': 'ExecuteStatement',
  '/BatchExecute': 'BatchExecuteStatement',
  '/BeginTransaction': 'BeginTransaction',
  '/CommitTransaction': 'CommitTransaction',
  '/RollbackTransaction': 'RollbackTransaction',
};

/** Path-style S3 requests (`/bucket/key`). */
function s3Calls(request: WireRequest): Mapped[] {
  const [, bucket = '', ...rest] = request.path.split('/');
  const key = rest.join('/');
  const bucketArn = `arn:${DEPLOYMENT.partition}:s3:::${bucket}`;
  const objectArn = `${bucketArn}/${key}`;
  const q = request.query;
  const method = request.method;
  if (!key) {
    if (method === 'POST' && 'delete' in q) {
      const keys = [...request.body.matchAll(/<Key>([^<]*)<\/Key>/g)].map((m) => decodeXml(m[1] ?? ''));
      return keys.map((k) => call('S3 DeleteObjects', 's3:DeleteObject', `${bucketArn}/${k}`));
    }
    if ((method === 'GET' || method === 'HEAD') && !('uploads' in q) && !('versions' in q)) {
      const context: Record<string, string> = { 's3:prefix': q.prefix ?? '' };
      if (q.delimiter) context['s3:delimiter'] = q.delimiter;
      if (q['max-keys']) context['s3:max-keys'] = q['max-keys'];
      return [
        call(method === 'HEAD' ? 'S3 HeadBucket' : 'S3 ListObjectsV2', 's3:ListBucket', bucketArn, context),
      ];
    }
  } else if (method === 'GET' || method === 'HEAD') {
    if (!Object.keys(q).some((name) => !name.startsWith('X-Amz-') && name !== 'x-id'))
      return [call(method === 'HEAD' ? 'S3 HeadObject' : 'S3 GetObject', 's3:GetObject', objectArn)];
  } else if (method === 'PUT') {
    const source = request.headers['x-amz-copy-source'];
    const copied = source
      ? [
          call(
            'S3 CopyObject',
            's3:GetObject',
            `arn:${DEPLOYMENT.partition}:s3:::${decodeURIComponent(source.replace(/^\//, ''))}`,
          ),
        ]
      : [];
    if (!('tagging' in q) && !('acl' in q))
      return [call(source ? 'S3 CopyObject' : 'S3 PutObject', 's3:PutObject', objectArn), ...copied];
  } else if (method === 'POST' && ('uploads' in q || 'uploadId' in q)) {
    return [call('S3 multipart upload', 's3:PutObject', objectArn)];
  } else if (method === 'DELETE') {
    if ('uploadId' in q) return [call('S3 AbortMultipartUpload', 's3:AbortMultipartUpload', objectArn)];
    if (!('versionId' in q) && !('tagging' in q))
      return [call('S3 DeleteObject', 's3:DeleteObject', objectArn)];
  }
  throw new Error(`unmapped S3 request ${method} ${request.path}?${new URLSearchParams(q)}`);
}

const decodeXml = (text: string) =>
  text.replace(
    /&(lt|gt|amp|quot|apos);/g,
    (_, e: string) => ({ lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" })[e] ?? '',
  );

/** Inference profile ids by their geography prefix (`global.`, `us.`, `eu.`, ...). */
const PROFILE = /^(global|us-gov|us|eu|apac|jp|au|ca)\.(.+)$/;

/**
 * What invoking `model` from `region` is authorized against. A foundation model: its ARN in the
 * region. A cross-Region inference profile: the profile in the region and the foundation model in
 * the region, with `bedrock:InferenceProfileArn` set; a global profile also the region-less
 * foundation model (`aws:RequestedRegion` unspecified), as AWS's policy example for global
 * cross-Region inference lists. (The destination regions of a geographic profile are not known here.)
 */
export function modelAuthorizations(
  model: string,
  region: string,
): { resource: string; context: Record<string, string> }[] {
  const { partition, account } = DEPLOYMENT;
  if (model.startsWith('arn:')) return [{ resource: model, context: {} }];
  const profile = PROFILE.exec(model);
  if (!profile?.[2])
    return [{ resource: `arn:${partition}:bedrock:${region}::foundation-model/${model}`, context: {} }];
  const profileArn = `arn:${partition}:bedrock:${region}:${account}:inference-profile/${model}`;
  const routed = { 'bedrock:InferenceProfileArn': profileArn };
  return [
    { resource: profileArn, context: {} },
    { resource: `arn:${partition}:bedrock:${region}::foundation-model/${profile[2]}`, context: routed },
    ...(profile[1] === 'global'
      ? [
          {
            resource: `arn:${partition}:bedrock:::foundation-model/${profile[2]}`,
            context: { ...routed, 'aws:RequestedRegion': 'unspecified' },
          },
        ]
      : []),
  ];
}

const BEDROCK_OPERATIONS: Record<string, [string, string]> = {
  converse: ['Converse', 'bedrock:InvokeModel'],
  'converse-stream': ['ConverseStream', 'bedrock:InvokeModelWithResponseStream'],
  invoke: ['InvokeModel', 'bedrock:InvokeModel'],
  'invoke-with-response-stream': ['InvokeModelWithResponseStream', 'bedrock:InvokeModelWithResponseStream'],
};

/**
 * Bedrock Runtime (`/model/{id}/converse` etc.: Converse is authorized as InvokeModel, ConverseStream
 * as InvokeModelWithResponseStream) and the Agents runtime's Rerank (`bedrock:Rerank`, which has no
 * resource, plus InvokeModel on the reranking model).
 */
function bedrockCalls(request: WireRequest): Mapped[] {
  if (request.path === '/rerank') {
    const body = json(request) as {
      rerankingConfiguration?: {
        bedrockRerankingConfiguration?: { modelConfiguration?: { modelArn?: string } };
      };
    };
    const model = body.rerankingConfiguration?.bedrockRerankingConfiguration?.modelConfiguration?.modelArn;
    if (!model) throw new Error('a Rerank request without a model ARN');
    return [
      call('Bedrock Rerank', 'bedrock:Rerank', '*'),
      ...modelAuthorizations(model, request.region).map((m) =>
        call('Bedrock Rerank', 'bedrock:InvokeModel', m.resource, m.context),
      ),
    ];
  }
  const [, model, kind = ''] = /^\/model\/([^/]+)\/([a-z-]+)$/.exec(request.path) ?? [];
  const operation = BEDROCK_OPERATIONS[kind];
  if (!model || !operation) throw new Error(`unmapped Bedrock path ${request.path}`);
  return modelAuthorizations(model, request.region).map((m) =>
    call(`Bedrock ${operation[0]}`, operation[1], m.resource, m.context),
  );
}

/** A request the Bedrock fake recorded (it speaks HTTP/2 itself), as the front records one. */
export function bedrockWireRequest(recorded: RecordedRequest): WireRequest {
  const headers = Object.fromEntries(Object.entries(recorded.headers).map(([k, v]) => [k, String(v)]));
  const scope = credentialScope(headers, {});
  return {
    caller: scope?.caller ?? '(unsigned)',
    service: scope?.service ?? '(unsigned)',
    region: scope?.region ?? '',
    method: recorded.method,
    path: recorded.path,
    query: {},
    headers,
    body: recorded.body === undefined ? '' : JSON.stringify(recorded.body),
  };
}

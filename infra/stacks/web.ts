import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  Function as EdgeFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  OriginRequestPolicy,
  PriceClass,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { FunctionUrlOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import type { IFunctionUrl } from 'aws-cdk-lib/aws-lambda';
import { BlockPublicAccess, Bucket, BucketEncryption } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, Source } from 'aws-cdk-lib/aws-s3-deployment';
import type { Construct } from 'constructs';
import { acknowledge } from '../nag.ts';
import { webClientSource } from '../web-client.ts';

/** SPA routing: paths without a file extension are the client's routes, answered by index.html. */
const SPA_REWRITE = `function handler(event) {
  var request = event.request;
  if (!/\\.[a-zA-Z0-9]+$/.test(request.uri)) request.uri = '/index.html';
  return request;
}`;

/** The site's Content-Security-Policy (the API keeps its own where it sets one). */
const CSP =
  "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; connect-src 'self' https://*.amazonaws.com; frame-ancestors 'none'; base-uri 'self'; object-src 'none'";

/** How the web client signs users in: written to `/config.json` beside the client. */
export interface WebAuth {
  type: 'cognito';
  region: string;
  userPoolId: string;
  clientId: string;
}

export interface WebStackProps extends StackProps {
  functionUrl: IFunctionUrl;
  /** The Cognito user pool and app client the client signs in with (USER_PASSWORD_AUTH). */
  auth: WebAuth;
}

/**
 * The web client on a private bucket behind CloudFront (origin access control), `/api/*` routed to
 * the ask function's URL (origin access control signs the requests) on the same origin, security
 * headers on every answer, client-side routes answered with index.html (a CloudFront Function on
 * the default behavior only: the API's own 403 and 404 answers stay as they are). `/config.json`
 * tells the client how to sign in (locally there is none, and the client shows no sign-in). The
 * client is built by the synthesis that deploys it (see web-client.ts).
 */
export class WebStack extends Stack {
  readonly distribution: Distribution;

  constructor(scope: Construct, id: string, props: WebStackProps) {
    super(scope, id, props);
    const site = new Bucket(this, 'Site', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: true,
    });
    acknowledge(
      site,
      'AwsSolutions-S1',
      'The site bucket holds only the public build of the client; requests are logged by CloudFront.',
    );
    // The API's own Content-Security-Policy (the image route's sandbox) is kept: override false there.
    const securityHeaders = (id: string, overrideCsp: boolean) =>
      new ResponseHeadersPolicy(this, id, {
        securityHeadersBehavior: {
          contentSecurityPolicy: {
            contentSecurityPolicy: CSP,
            override: overrideCsp,
          },
          contentTypeOptions: { override: true },
          frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
          referrerPolicy: {
            referrerPolicy: HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN,
            override: true,
          },
          strictTransportSecurity: {
            accessControlMaxAge: Duration.days(365),
            includeSubdomains: true,
            override: true,
          },
          xssProtection: { protection: true, modeBlock: true, override: true },
        },
      });
    const headers = securityHeaders('SecurityHeaders', true);
    const spa = new EdgeFunction(this, 'SpaRouting', {
      code: FunctionCode.fromInline(SPA_REWRITE),
      runtime: FunctionRuntime.JS_2_0,
    });
    this.distribution = new Distribution(this, 'Distribution', {
      defaultRootObject: 'index.html',
      priceClass: PriceClass.PRICE_CLASS_100,
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(site),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        responseHeadersPolicy: headers,
        functionAssociations: [{ function: spa, eventType: FunctionEventType.VIEWER_REQUEST }],
      },
      additionalBehaviors: {
        '/api/*': {
          origin: FunctionUrlOrigin.withOriginAccessControl(props.functionUrl, {
            readTimeout: Duration.seconds(60),
          }),
          viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: AllowedMethods.ALLOW_ALL,
          cachePolicy: CachePolicy.CACHING_DISABLED,
          originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          responseHeadersPolicy: securityHeaders('ApiSecurityHeaders', false),
          // Server-Sent Events must reach the browser as they are written, never buffered to compress.
          compress: false,
        },
      },
    });
    for (const [rule, reason] of [
      [
        'AwsSolutions-CFR1',
        'DropQA serves an organisation wherever its people are; no country is excluded by default.',
      ],
      [
        'AwsSolutions-CFR2',
        'A WAF web ACL costs at least $5 a month idle; the API requires a signed-in user and the site is static.',
      ],
      [
        'AwsSolutions-CFR3',
        'Access logging needs an ACL-enabled bucket; CloudFront standard logs can be switched on per deployment.',
      ],
      [
        'AwsSolutions-CFR4',
        'The default CloudFront domain certificate does not allow choosing the minimum TLS version; a custom domain can.',
      ],
    ] as const) {
      acknowledge(this.distribution, rule, reason);
    }

    new BucketDeployment(this, 'Client', {
      sources: [webClientSource(this), Source.jsonData('config.json', { auth: props.auth })],
      destinationBucket: site,
      distribution: this.distribution,
      distributionPaths: ['/*'],
    });
    // The CDK-managed function behind BucketDeployment: its role and runtime are the CDK's. (Its basic
    // execution role and its read of the CDK asset bucket depend on the environment's ARNs: see
    // nag-wildcards.ts.)
    const deployment = 'The CDK-managed deployment function copies the client build into the site bucket';
    const findings: [string, string][] = [
      ['AwsSolutions-L1', `${deployment}; the CDK picks its runtime.`],
      ['AwsSolutions-IAM5[Resource::*]', `${deployment} and invalidates the distribution's cache.`],
      ...['s3:GetObject*', 's3:GetBucket*', 's3:List*', 's3:DeleteObject*', 's3:Abort*'].map(
        (action): [string, string] => [
          `AwsSolutions-IAM5[Action::${action}]`,
          `${deployment} and replaces what was there (the CDK's grant).`,
        ],
      ),
    ];
    for (const [rule, reason] of findings) acknowledge(this, rule, reason);
    new CfnOutput(this, 'Url', { value: `https://${this.distribution.distributionDomainName}` });
  }
}

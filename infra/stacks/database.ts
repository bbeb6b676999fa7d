import { CustomResource, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { FlowLogDestination, type IVpc, SubnetType, Vpc } from 'aws-cdk-lib/aws-ec2';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import {
  AuroraPostgresEngineVersion,
  ClusterInstance,
  Credentials,
  DatabaseCluster,
  DatabaseClusterEngine,
  DatabaseSecret,
} from 'aws-cdk-lib/aws-rds';
import { Provider } from 'aws-cdk-lib/custom-resources';
import type { Construct } from 'constructs';
import { HouseFunction } from '../house-function.ts';
import { migrationsHash } from '../migrations-hash.ts';
import { acknowledge } from '../nag.ts';
import type { Settings } from '../settings.ts';

export const DATABASE_NAME = 'dropqa';

/**
 * Aurora PostgreSQL Serverless v2 (16.6: pgvector 0.8) in isolated subnets of its own VPC, no NAT:
 * nothing reaches it over the network; the functions use the Data API (HTTPS, IAM, no VPC).
 * Credentials live in Secrets Manager. A custom resource applies the migrations whenever they change.
 */
export class DatabaseStack extends Stack {
  readonly vpc: IVpc;
  readonly cluster: DatabaseCluster;

  constructor(scope: Construct, id: string, props: StackProps & { settings: Settings }) {
    super(scope, id, props);
    const { settings } = props;
    this.vpc = new Vpc(this, 'Vpc', {
      maxAzs: 2,
      natGateways: 0,
      subnetConfiguration: [{ name: 'isolated', subnetType: SubnetType.PRIVATE_ISOLATED, cidrMask: 24 }],
      flowLogs: { rejected: { destination: FlowLogDestination.toCloudWatchLogs() } },
    });
    // The master password a restored snapshot needs lives only in this secret: kept whenever the
    // cluster's snapshot is (RemovalPolicy.SNAPSHOT leaves a generated secret to be deleted).
    const secret = new DatabaseSecret(this, 'Secret', { username: 'dropqa' });
    secret.applyRemovalPolicy(settings.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY);
    acknowledge(
      secret,
      'AwsSolutions-SMG4',
      'Rotation needs a rotation function inside the VPC with a Secrets Manager endpoint (an always-on cost); the Data API reads the secret on each call, so rotation can be added later without code changes.',
    );
    this.cluster = new DatabaseCluster(this, 'Cluster', {
      engine: DatabaseClusterEngine.auroraPostgres({ version: AuroraPostgresEngineVersion.VER_16_6 }),
      writer: ClusterInstance.serverlessV2('writer'),
      serverlessV2MinCapacity: settings.dbMinCapacity,
      serverlessV2MaxCapacity: settings.dbMaxCapacity,
      serverlessV2AutoPauseDuration:
        settings.dbMinCapacity === 0 ? Duration.minutes(settings.dbAutoPauseMinutes) : undefined,
      vpc: this.vpc,
      vpcSubnets: { subnetType: SubnetType.PRIVATE_ISOLATED },
      credentials: Credentials.fromSecret(secret),
      defaultDatabaseName: DATABASE_NAME,
      enableDataApi: true,
      storageEncrypted: true,
      iamAuthentication: true,
      deletionProtection: settings.retainData,
      removalPolicy: settings.retainData ? RemovalPolicy.SNAPSHOT : RemovalPolicy.DESTROY,
      backup: { retention: Duration.days(7) },
      cloudwatchLogsExports: ['postgresql'],
      cloudwatchLogsRetention: RetentionDays.ONE_MONTH,
      port: 5433,
    });
    // cloudwatchLogsRetention is applied by a CDK-managed function (its basic execution role: see
    // nag-wildcards.ts).
    acknowledge(
      this,
      'AwsSolutions-IAM5[Resource::*]',
      'The CDK-managed log-retention function sets the retention of log groups created by RDS.',
    );
    const migrate = new HouseFunction(this, 'Migrate', {
      entry: 'functions/migrate/handler.ts',
      description: 'Applies the DropQA database migrations through the Data API',
      timeout: Duration.minutes(10),
      memorySize: 512,
      logRetention: settings.logRetentionDays as RetentionDays,
      withMigrations: true,
    });
    this.grantDataApi(migrate);
    const provider = new Provider(this, 'MigrationProvider', { onEventHandler: migrate });
    const schema = new CustomResource(this, 'Schema', {
      serviceToken: provider.serviceToken,
      // A changed migration changes the property, and only then CloudFormation calls the function
      // (which skips the migrations already applied).
      properties: { migrations: migrationsHash() },
    });
    schema.node.addDependency(this.cluster);
    acknowledge(
      provider,
      'AwsSolutions-L1',
      'The custom-resource framework function is managed by the CDK, which picks its runtime.',
    );
    acknowledge(
      provider,
      'AwsSolutions-IAM5',
      'The CDK custom-resource framework may invoke any version of the migration function (ARN:*).',
    );
  }

  /**
   * Lets a function use the database through the Data API and tells it where the database is: the
   * grant and the variables are set together.
   */
  grantDataApi(fn: IFunction & { addEnvironment(key: string, value: string): unknown }): void {
    this.cluster.grantDataApiAccess(fn);
    // The configuration's database.dataApi (shared/config), as every DROPQA_* setting.
    fn.addEnvironment('DROPQA_DATABASE__DATA_API__RESOURCE_ARN', this.cluster.clusterArn);
    fn.addEnvironment('DROPQA_DATABASE__DATA_API__SECRET_ARN', this.cluster.secret?.secretArn ?? '');
    fn.addEnvironment('DROPQA_DATABASE__DATA_API__DATABASE', DATABASE_NAME);
  }
}

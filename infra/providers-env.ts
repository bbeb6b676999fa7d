import type { Stack } from 'aws-cdk-lib';
import { type IGrantable, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { envName, loadConfig } from '#shared/config/index.ts';
import { bedrockModels } from '#shared/llm/provider-settings.ts';
import { modelResources } from './model-grants.ts';
import type { Settings } from './settings.ts';

/** The `DROPQA_*` variables that configure the providers (read by shared/config like any setting). */
export function providerEnvironment(settings: Settings): Record<string, string> {
  // Offline OCR (tesseract) is not deployed: images keep their alt text.
  if (settings.providers === 'offline') return { DROPQA_PROVIDERS__OCR__KIND: 'none' };
  return {
    DROPQA_PROVIDERS__CHAT__KIND: 'bedrock',
    DROPQA_PROVIDERS__CHAT__MODEL: settings.chatModel,
    DROPQA_PROVIDERS__ROLES__CONDENSE__MODEL: settings.condenseModel,
    ...Object.fromEntries(
      Object.entries(settings.roleModels).map(([role, model]) => [
        envName(`providers.roles.${role}.model`),
        model,
      ]),
    ),
    DROPQA_PROVIDERS__EMBEDDER__KIND: 'bedrock',
    DROPQA_PROVIDERS__EMBEDDER__MODEL: settings.embeddingModel,
    DROPQA_PROVIDERS__EMBEDDER__DIMENSIONS: String(settings.embeddingDimensions),
    DROPQA_PROVIDERS__OCR__KIND: 'textract',
    ...(settings.rerankModel
      ? { DROPQA_SEARCH__RERANK__KIND: 'bedrock', DROPQA_SEARCH__RERANK__MODEL: settings.rerankModel }
      : {}),
  };
}

/** The storage variables of every function that reads or writes the bucket. */
export function storageEnvironment(bucketName: string): Record<string, string> {
  return { DROPQA_STORAGE__KIND: 's3', DROPQA_BUCKET: bucketName };
}

/**
 * The collections variables of every function that creates documents or reads them (a key's
 * collection is set when its document is created): the `collectionPrefixes` setting.
 */
export function collectionsEnvironment(settings: Settings): Record<string, string> {
  return { DROPQA_COLLECTIONS__PREFIXES: JSON.stringify(settings.collectionPrefixes) };
}

/**
 * The configuration the functions run with, as far as `providerEnvironment` sets it (no file: a
 * function reads none). Throws a ConfigError at synthesis for settings the functions would refuse.
 */
export function deployedConfig(settings: Settings) {
  return loadConfig({ env: providerEnvironment(settings), file: false });
}

/**
 * Lets a function call every Bedrock model its configuration names (`bedrockModels`: each role's
 * chat model, the embedder, the reranker), and Textract and Bedrock Rerank, which have no
 * resource-level permissions: no wildcard actions. An inference profile is granted with the
 * foundation models it routes to (see `modelResources`).
 */
export function grantModels(grantee: IGrantable, settings: Settings, scope: Stack, ocr = false): void {
  if (settings.providers === 'offline') return;
  const config = deployedConfig(settings);
  const models = bedrockModels(config);
  grantee.grantPrincipal.addToPrincipalPolicy(
    new PolicyStatement({
      actions: ['bedrock:InvokeModel', 'bedrock:InvokeModelWithResponseStream'],
      resources: [...new Set(models.flatMap((model) => modelResources(model, scope)))],
    }),
  );
  if (config.search.rerank.kind === 'bedrock') {
    // Rerank has no resource-level permissions; the model it runs is granted InvokeModel above.
    grantee.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['bedrock:Rerank'], resources: ['*'] }),
    );
  }
  if (ocr) {
    grantee.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['textract:DetectDocumentText'], resources: ['*'] }),
    );
  }
}

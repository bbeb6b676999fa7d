import type { Stack } from 'aws-cdk-lib';
import { type IGrantable, PolicyStatement } from 'aws-cdk-lib/aws-iam';
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
 * Lets a function call the configured Bedrock models (and Textract and Bedrock Rerank, which have no
 * resource-level permissions), named one by one: no wildcard actions. An inference profile is granted with the
 * foundation models it routes to (see `modelResources`).
 */
export function grantModels(grantee: IGrantable, settings: Settings, scope: Stack, ocr = false): void {
  if (settings.providers === 'offline') return;
  const models = [
    settings.chatModel,
    settings.condenseModel,
    settings.embeddingModel,
    ...(settings.rerankModel ? [settings.rerankModel] : []),
  ];
  grantee.grantPrincipal.addToPrincipalPolicy(
    new PolicyStatement({
      actions: ['bedrock:InvokeModel', 'bedrock:InvokeModelWithResponseStream'],
      resources: [...new Set(models.flatMap((model) => modelResources(model, scope)))],
    }),
  );
  if (settings.rerankModel) {
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

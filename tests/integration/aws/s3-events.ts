/**
 * A key as S3 writes it into its events: form URL encoding (space as '+', UTF-8 and punctuation such
 * as parentheses as %XX escapes), '/' left as it is.
 */
export function encodeS3EventKey(key: string): string {
  return key
    .split('/')
    .map((part) =>
      encodeURIComponent(part)
        .replace(/[!'()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
        .replaceAll('%20', '+'),
    )
    .join('/');
}

/**
 * S3 events exactly as EventBridge delivers them (documented shapes, `source: aws.s3`, the key
 * URL-encoded), for a versioned bucket (with `version-id`) or an unversioned one (without).
 */
export function objectCreatedEvent(key: string, sequencer: string, versionId?: string, size = 100) {
  return {
    version: '0',
    id: '17793124-05d4-b198-2fde-7ededc63b103',
    'detail-type': 'Object Created',
    source: 'aws.s3',
    account: '123456789012',
    time: '2026-11-22T00:00:00Z',
    region: 'us-east-1',
    resources: ['arn:aws:s3:::dropqa-documents-123456789012-us-east-1'],
    detail: {
      version: '0',
      bucket: { name: 'dropqa-documents-123456789012-us-east-1' },
      object: {
        key: encodeS3EventKey(key),
        size,
        etag: 'b1946ac92492d2347c6235b4d2611184',
        ...(versionId ? { 'version-id': versionId } : {}),
        sequencer,
      },
      'request-id': 'N4N7GDK58NMKJ12R',
      requester: '123456789012',
      'source-ip-address': '1.2.3.4',
      reason: 'PutObject',
    },
  };
}

export function objectDeletedEvent(key: string, sequencer: string, versionId?: string) {
  return {
    version: '0',
    id: '2ee9cc15-d022-99ea-1fb8-1b1bac4850f9',
    'detail-type': 'Object Deleted',
    source: 'aws.s3',
    account: '123456789012',
    time: '2026-11-22T00:01:00Z',
    region: 'us-east-1',
    resources: ['arn:aws:s3:::dropqa-documents-123456789012-us-east-1'],
    detail: {
      version: '0',
      bucket: { name: 'dropqa-documents-123456789012-us-east-1' },
      object: { key: encodeS3EventKey(key), ...(versionId ? { 'version-id': versionId } : {}), sequencer },
      'request-id': '0BH729840619AG5K',
      requester: '123456789012',
      'source-ip-address': '1.2.3.4',
      reason: 'DeleteObject',
      'deletion-type': versionId ? 'Delete Marker Created' : 'Permanently Deleted',
    },
  };
}

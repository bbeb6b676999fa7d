const SECRET_KEY = /(key|secret|password|token)/i;

/**
 * A copy of a configuration fit to print: values of secret-looking keys become `****`, and
 * passwords inside URLs are hidden.
 */
export function maskSecrets<T>(value: T): T {
  return mask(value, '') as T;
}

function mask(value: unknown, key: string): unknown {
  if (Array.isArray(value)) return value.map((v) => mask(v, key));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mask(v, k)]));
  }
  if (typeof value !== 'string') return value;
  if (SECRET_KEY.test(key) && value !== '') return '****';
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@\s]+):([^@/\s]+)@/i, '$1:****@');
}

/**
 * The header DropQA's own page and CLI send on every request that changes data (any value). In a
 * module of its own: the CLI sends it without loading the server's request checks (and hono).
 */
export const CLIENT_HEADER = 'X-DropQA-Client';

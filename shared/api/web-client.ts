import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Context, Hono } from 'hono';

const WEB = fileURLToPath(new URL('../../web/', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Serves the built web client (web/dist) on every non-API GET: files by path, any other path the
 * client's index.html (its router owns the URL). Without a build, `/` answers the plain page
 * (web/plain). Checked per request, so a build made while the server runs is picked up.
 * Register after the API routes. `webDir` (default: the repository's web/) holds dist/ and plain/.
 */
export function serveWebClient(app: Hono, webDir: string = WEB): void {
  const dist = resolve(webDir, 'dist');
  const plain = resolve(webDir, 'plain/index.html');
  app.get('*', async (c) => {
    if (c.req.path === '/api' || c.req.path.startsWith('/api/')) return c.notFound();
    const index = resolve(dist, 'index.html');
    if (!existsSync(index)) return plainPage(c, plain);
    const file = fileIn(dist, c.req.path);
    if (file) {
      const hashed = file.startsWith(resolve(dist, 'assets') + sep);
      return c.body(await readFile(file), 200, {
        'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
        // Vite names assets by content hash: they never change under one name.
        'Cache-Control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
        'X-Content-Type-Options': 'nosniff',
      });
    }
    if (extname(c.req.path)) return c.notFound();
    return c.body(await readFile(index), 200, {
      'Content-Type': TYPES['.html'] as string,
      'Cache-Control': 'no-cache',
      'X-Content-Type-Options': 'nosniff',
    });
  });
}

/** The file a URL path names inside `dir`, when it is one (never outside it, never a folder). */
function fileIn(dir: string, path: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return undefined;
  }
  const file = resolve(dir, `.${decoded}`);
  if (!file.startsWith(dir + sep) || !extname(file)) return undefined;
  return statSync(file, { throwIfNoEntry: false })?.isFile() ? file : undefined;
}

async function plainPage(c: Context, page: string): Promise<Response> {
  if (c.req.path !== '/') return c.notFound();
  const html = existsSync(page) ? await readFile(page, 'utf8') : '<h1>DropQA</h1>';
  c.header('Content-Security-Policy', inlinePolicy(html));
  return c.html(html);
}

/** The plain page keeps its script and style inline: the policy allows exactly those, by hash. */
function inlinePolicy(html: string): string {
  const hashes = (tag: string) =>
    [...html.matchAll(new RegExp(`<${tag}[^>]*>([\\s\\S]*?)</${tag}>`, 'g'))]
      .map(
        (m) =>
          `'sha256-${createHash('sha256')
            .update(m[1] ?? '')
            .digest('base64')}'`,
      )
      .join(' ');
  return `default-src 'self'; script-src ${hashes('script') || "'none'"}; style-src ${hashes('style') || "'none'"}; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'`;
}

import { type ChildProcess, fork } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const RUNTIME = fileURLToPath(new URL('./lambda-runtime.mjs', import.meta.url));

export interface LambdaContainer {
  /** One invocation: the handler's result, or its error rethrown with its name. */
  invoke<T = unknown>(event: unknown): Promise<T>;
  /** One invocation in RESPONSE_STREAM mode: the response metadata and the whole body. */
  invokeStreaming(
    event: unknown,
  ): Promise<{ metadata: { statusCode: number; headers: Record<string, string> }; body: string }>;
  /** What the function wrote to stdout and stderr (its logs). */
  logs(): string;
  stop(): Promise<void>;
}

/**
 * A warm Lambda container for a deployed function's code folder: the folder is the one Lambda would
 * unzip (copied by the caller outside the repository), loaded by `lambda-runtime.mjs` in a Node
 * process of its own with exactly `env` (nothing of the test process leaks in), initialized once and
 * invoked by message. Rejects when the module fails to initialize.
 *
 * @example const register = await startContainer(dir, 'ingest/register.handler', env);
 */
export async function startContainer(
  dir: string,
  handler: string,
  env: Record<string, string>,
): Promise<LambdaContainer> {
  let output = '';
  const child: ChildProcess = fork(RUNTIME, [dir, handler], {
    cwd: dir,
    env,
    execArgv: [],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const pending = new Map<string, { resolve(value: unknown): void; reject(error: Error): void }>();
  let next = 0;
  await new Promise<void>((resolve, reject) => {
    child.once('message', (message: { ready: boolean; error?: { message: string } }) =>
      message.ready
        ? resolve()
        : reject(new Error(`${handler} failed to initialize: ${message.error?.message}\n${output}`)),
    );
    child.once('exit', (code) => reject(new Error(`${handler} exited with ${code}\n${output}`)));
  });
  child.on(
    'message',
    (message: { id?: string; result?: unknown; error?: { name: string; message: string } }) => {
      const call = message.id ? pending.get(message.id) : undefined;
      if (!call || !message.id) return;
      pending.delete(message.id);
      if (message.error)
        call.reject(Object.assign(new Error(message.error.message), { name: message.error.name }));
      else call.resolve(message.result);
    },
  );
  const send = (event: unknown, stream: boolean) =>
    new Promise<unknown>((resolve, reject) => {
      const id = `invocation-${++next}`;
      pending.set(id, { resolve, reject });
      child.send({ id, event, stream });
    });
  return {
    invoke: (event) => send(event, false) as never,
    invokeStreaming: (event) => send(event, true) as never,
    logs: () => output,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
    },
  };
}

/**
 * Copies the node_modules packages `names` and everything they depend on (as installed here: this
 * machine's builds of native modules) into `target/node_modules`, for bundles run on this machine.
 */
export function copyPackages(repoRoot: string, names: string[], target: string): string {
  const seen = new Set<string>();
  const visit = (name: string) => {
    const source = join(repoRoot, 'node_modules', name);
    if (seen.has(name) || !existsSync(join(source, 'package.json'))) return;
    seen.add(name);
    mkdirSync(join(target, 'node_modules', name), { recursive: true });
    cpSync(source, join(target, 'node_modules', name), { recursive: true, dereference: true });
    const manifest = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      optionalDependencies?: Record<string, string>;
    };
    for (const dep of Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies })) visit(dep);
  };
  for (const name of names) visit(name);
  return join(target, 'node_modules');
}

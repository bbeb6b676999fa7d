import { type FunctionRole, unusedGrants } from './role-simulation.ts';
import type { IamCall } from './wire-calls.ts';

/** A call's class: its action on its resource, an S3 object ARN cut to its first key segment (`documents/*`). */
export function callClass(call: IamCall): string {
  const object = /^(arn:[^:]+:s3:::[^/]+)\/([^/]+)\/.+$/.exec(call.resource);
  return `${call.action} ${object ? `${object[1]}/${object[2]}/*` : call.resource}`;
}

/**
 * Per function: the classes of the calls it made (`callClass`) and the grants of its role that none
 * of them used, as data and as text for the test's log.
 */
export function grantsReport(app: {
  functionIds: string[];
  checked: IamCall[];
  roleOf(caller: string): FunctionRole | undefined;
}) {
  const classes: Record<string, string[]> = {};
  const unused: Record<string, string[]> = {};
  const lines: string[] = [];
  for (const id of app.functionIds) {
    const calls = app.checked.filter((c) => c.caller === id);
    classes[id] = [...new Set(calls.map(callClass))].sort();
    const role = app.roleOf(id);
    unused[id] = role ? unusedGrants(role, calls) : [];
    lines.push(
      `${id}:`,
      ...classes[id].map((c) => `  called  ${c}`),
      ...unused[id].map((g) => `  unused  ${g}`),
    );
  }
  return { classes, unused, text: lines.join('\n') };
}

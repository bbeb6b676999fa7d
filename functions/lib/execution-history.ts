import { GetExecutionHistoryCommand, type SFNClient } from '@aws-sdk/client-sfn';
import { registerOutputSchema } from '#shared/pipeline/contract.ts';
import type { RegistrationOf } from '#shared/pipeline/execution-ended.ts';

/** Register is among an execution's first events; a few pages cover its retries. */
const MAX_PAGES = 3;

/**
 * Reads what Register recorded for an execution from its history (the state Register exited with,
 * at `$.register`): the document and the version the execution was for, or undefined when Register
 * never finished.
 *
 * @example const registration = registrationReader(new SFNClient({}));
 */
export function registrationReader(client: SFNClient): RegistrationOf {
  return async (executionArn) => {
    let nextToken: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const history = await client.send(
        new GetExecutionHistoryCommand({
          executionArn,
          maxResults: 100,
          nextToken,
          includeExecutionData: true,
        }),
      );
      for (const event of history.events ?? []) {
        const exited = event.stateExitedEventDetails;
        if (event.type !== 'TaskStateExited' || exited?.name !== 'Register') continue;
        const state = JSON.parse(exited.output ?? '{}') as { register?: unknown };
        const parsed = registerOutputSchema.safeParse(state.register);
        return parsed.success ? parsed.data : undefined;
      }
      nextToken = history.nextToken;
      if (!nextToken) return undefined;
    }
    return undefined;
  };
}

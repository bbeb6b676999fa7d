/**
 * The subset of the Amazon States Language (JSONPath mode) the pipeline uses, typed so that the
 * definition is checked by the compiler; asl-validator checks it against the full specification.
 */

export interface Retrier {
  ErrorEquals: string[];
  IntervalSeconds?: number;
  MaxAttempts?: number;
  BackoffRate?: number;
  MaxDelaySeconds?: number;
  JitterStrategy?: 'FULL' | 'NONE';
}

export interface Catcher {
  ErrorEquals: string[];
  Next: string;
  ResultPath?: string | null;
}

type Transition = { Next: string; End?: never } | { End: true; Next?: never };

/** A payload template: keys ending in `.$` take a JSONPath (`$$.` for the context object). */
export type PayloadTemplate = Record<string, unknown>;

interface DataFlow {
  Comment?: string;
  InputPath?: string | null;
  OutputPath?: string | null;
}

export type TaskState = DataFlow &
  Transition & {
    Type: 'Task';
    Resource: string;
    Parameters?: PayloadTemplate;
    ResultSelector?: PayloadTemplate;
    ResultPath?: string | null;
    TimeoutSeconds?: number;
    Retry?: Retrier[];
    Catch?: Catcher[];
  };

export interface ChoiceRule {
  Variable: string;
  StringEquals?: string;
  BooleanEquals?: boolean;
  NumericGreaterThan?: number;
  IsPresent?: boolean;
  Next: string;
}

export interface ChoiceState extends DataFlow {
  Type: 'Choice';
  Choices: ChoiceRule[];
  Default?: string;
}

export type MapState = DataFlow &
  Transition & {
    Type: 'Map';
    ItemsPath?: string;
    ItemSelector?: PayloadTemplate;
    MaxConcurrency?: number;
    ItemProcessor: SubMachine & { ProcessorConfig?: { Mode: 'INLINE' } };
    ResultPath?: string | null;
    Retry?: Retrier[];
    Catch?: Catcher[];
  };

export interface SucceedState extends DataFlow {
  Type: 'Succeed';
}

export interface FailState {
  Type: 'Fail';
  Comment?: string;
  Error?: string;
  ErrorPath?: string;
  Cause?: string;
  CausePath?: string;
}

export type State = TaskState | ChoiceState | MapState | SucceedState | FailState;

export interface SubMachine {
  StartAt: string;
  States: Record<string, State>;
}

export interface StateMachineDefinition extends SubMachine {
  Comment?: string;
  TimeoutSeconds?: number;
}

/**
 * How the data layer fails, never as an HTTP error (lib/use-cases/failures.ts maps each to the
 * API's codes). A write's conditions that its caller decides on come back as values naming what
 * failed (`transact`, `UpdateOutcome`, each commit's result); anything else it cannot do is a
 * thrown DataFailure:
 * - `busy`: real DynamoDB kept cancelling the transaction for conflicts (nothing written);
 * - `unprocessed`: DynamoDB kept leaving keys of a batched read unprocessed;
 * - `collision`: an item that must be new (a fresh random id) already exists;
 * - `too_large`: more actions than one transaction takes;
 * - `corrupt`: an item read does not decode as its kind (a field of the wrong type, or another
 *   kind's item under the key): its message names the kind, the key and the fields, never a value.
 */
export type DataFailureCode = 'busy' | 'unprocessed' | 'collision' | 'too_large' | 'corrupt';

export class DataFailure extends Error {
  constructor(
    readonly code: DataFailureCode,
    message: string,
  ) {
    super(message);
    this.name = 'DataFailure';
  }
}

export const isDataFailure = (error: unknown, code?: DataFailureCode): error is DataFailure =>
  error instanceof DataFailure && (code === undefined || error.code === code);

import { AppError } from "../../src/kernel/errors.ts";

/** The AppError `fn` throws; anything else it throws is thrown on, and a return fails the test. */
export function thrownAppError(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("expected an AppError");
}

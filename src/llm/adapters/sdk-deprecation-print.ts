/**
 * The Anthropic SDK prints its own deprecation notice with `console.warn` when `messages.create` is
 * called with a model on its list: "The model 'ID' is deprecated and will reach end-of-life on DAY\nPlease
 * migrate to a newer model. Visit https://docs.anthropic.com/en/docs/resources/model-deprecations for more
 * information." (node_modules/@anthropic-ai/sdk/resources/beta/messages/messages.js, `create`; the same
 * in anthropics/anthropic-sdk-typescript src/resources/messages/messages.ts). The SDK offers no switch for
 * it: it is a bare `console.warn`, outside `logLevel`/`ANTHROPIC_LOG`, which govern only its logger. Our
 * own `model_retiring` warning (client.ts) says the same with the replacement, so this one print is
 * dropped: `console.warn` is wrapped for the synchronous part of `create` only (where the SDK prints it),
 * and every other warning passes through unchanged.
 */

const SDK_DEPRECATION = /^The model '[^']*' is deprecated and will reach end-of-life on /;

/** Runs `call` (synchronously) with the SDK's deprecation print dropped; other warnings still print. */
export function withoutSdkDeprecationPrint<T>(call: () => T): T {
  const original = console.warn;
  console.warn = (...args: unknown[]): void => {
    if (typeof args[0] === "string" && SDK_DEPRECATION.test(args[0])) return;
    original.apply(console, args);
  };
  try {
    return call();
  } finally {
    console.warn = original;
  }
}

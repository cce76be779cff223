/**
 * Optional request settings an API may refuse for a reason the catalog cannot know (the account, a model
 * outside the catalog, what a local model can do). On such a refusal the request goes once more without
 * the setting, the setting stays off for the rest of the session (for the provider instance or the model,
 * as the refusal is about one or the other), and one `warning` event says so. Anything else the API
 * answers is thrown on unchanged, to be classified as usual.
 */
import type { StreamEvent } from "../../kernel/conversation/stream.ts";

/** What an HTTP refusal says, read from an SDK error (status, and the API's `error` object). */
export interface Refusal {
  status: number;
  message: string;
  param?: string;
}

/** One optional setting, named by the warning code given when it is turned off. */
export interface RefusableSetting {
  code: string;
  /** "provider": a fact of the account (every model of this provider instance); "model": of one model. */
  scope: "provider" | "model";
  /** Whether `refusal` is the API refusing this setting. */
  refusedBy(refusal: Refusal): boolean;
  /** The warning's text for `model`, given the API's own message. */
  warning(model: string, apiMessage: string): string;
}

/** The settings refused so far, per stream function (one per provider instance and session). */
export class RefusedSettings {
  private readonly refused = new Set<string>();

  private key(setting: RefusableSetting, model: string): string {
    return setting.scope === "provider" ? setting.code : `${setting.code}\0${model}`;
  }

  /** Whether `setting` is off for `model`. */
  isOff(setting: RefusableSetting, model: string): boolean {
    return this.refused.has(this.key(setting, model));
  }

  remember(setting: RefusableSetting, model: string): void {
    this.refused.add(this.key(setting, model));
  }
}

/** The refusal an SDK error carries, or undefined when it is no HTTP answer (the OpenAI SDK keeps the
 * body's inner `error` object on `.error`: node_modules/openai/core/error.js `APIError.generate`). */
export function refusalOf(err: unknown): Refusal | undefined {
  const e = err as { status?: unknown; error?: unknown; message?: unknown } | null;
  if (typeof e?.status !== "number") return undefined;
  const outer = (e.error ?? {}) as { message?: unknown; param?: unknown; error?: unknown };
  const inner = (outer.error !== null && typeof outer.error === "object" ? outer.error : outer) as {
    message?: unknown;
    param?: unknown;
  };
  const message =
    typeof inner.message === "string" ? inner.message : typeof e.message === "string" ? e.message : "";
  const refusal: Refusal = { status: e.status, message };
  if (typeof inner.param === "string") refusal.param = inner.param;
  return refusal;
}

/**
 * Sends the request `attempt` builds without the settings already off for `model`; when the API refuses
 * one that the attempt carried, remembers it, yields one warning and sends again. Each setting is turned
 * off at most once, so this ends.
 */
export async function* sendDroppingRefused<R>(
  memory: RefusedSettings,
  model: string,
  settings: readonly RefusableSetting[],
  attempt: (isOff: (setting: RefusableSetting) => boolean) => {
    carried: readonly RefusableSetting[];
    response: () => Promise<R>;
  },
): AsyncGenerator<StreamEvent, R> {
  for (;;) {
    const { carried, response } = attempt((setting) => memory.isOff(setting, model));
    try {
      return await response();
    } catch (err) {
      const refusal = refusalOf(err);
      const setting = refusal
        ? settings.find((s) => carried.includes(s) && !memory.isOff(s, model) && s.refusedBy(refusal))
        : undefined;
      if (!refusal || !setting) throw err;
      memory.remember(setting, model);
      yield { type: "warning", code: setting.code, message: setting.warning(model, refusal.message) };
    }
  }
}

/**
 * A preload (`bun --preload`) that fails any load of an @opentelemetry package, except the packages
 * named in NO_OTEL_EXCEPT (comma-separated, e.g. `api`): a run with telemetry off must succeed under it
 * (test/e2e/telemetry/off-loads-nothing.test.ts).
 */
import { plugin } from "bun";

export const GUARD_MESSAGE = "an @opentelemetry module was loaded";

const allowed = (process.env.NO_OTEL_EXCEPT ?? "").split(",").filter((name) => /^[a-z-]+$/.test(name));
const except = allowed.map((name) => `(?!${name}[\\\\/])`).join("");

plugin({
  name: "no-opentelemetry",
  setup(build) {
    // onLoad sees every file Bun loads from node_modules (a runtime onResolve does not see bare packages).
    build.onLoad(
      { filter: new RegExp(`[\\\\/]node_modules[\\\\/]@opentelemetry[\\\\/]${except}`) },
      (args) => {
        throw new Error(`${GUARD_MESSAGE}: ${args.path}`);
      },
    );
  },
});

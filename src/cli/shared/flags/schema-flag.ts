/**
 * `--schema FILE|JSON` (run and helper): inline JSON when the value starts with `{`, otherwise a file
 * holding the schema, read through the guarded reader (flag-file.ts). Anything unusable is a usage error (exit 2) saying what is wrong.
 */
import { compileOutputSchema, type OutputSchema, schemaName } from "../../../agents/loop/output-schema.ts";
import { AppError } from "../../../kernel/index.ts";
import { readFlagFile } from "./flag-file.ts";

/** `workspace` bounds symlinks: see flag-file.ts. */
export async function loadSchemaFlag(
  value: string | undefined,
  workspace: string,
): Promise<OutputSchema | undefined> {
  if (value === undefined) return undefined;
  const inline = value.trim().startsWith("{");
  let text = value;
  if (!inline) {
    try {
      text = await readFlagFile(value, `--schema ${value}`, workspace);
    } catch (error) {
      throw new AppError(
        "usage",
        `${(error as Error).message}; pass a JSON schema file or inline JSON starting with {`,
      );
    }
  }
  const where = inline ? "--schema" : `--schema ${value}`;
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (error) {
    throw new AppError("usage", `${where}: not valid JSON (${(error as Error).message})`);
  }
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) {
    throw new AppError("usage", `${where}: expected a JSON schema object such as {"type":"object",...}`);
  }
  try {
    return await compileOutputSchema({
      name: schemaName(inline ? undefined : value),
      schema: schema as Record<string, unknown>,
    });
  } catch (error) {
    throw new AppError("usage", `${where}: not a valid JSON schema: ${(error as Error).message}`);
  }
}

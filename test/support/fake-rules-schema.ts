/**
 * Walking a JSON schema for the fake's structured-output rules (fake-rules-openai.ts,
 * fake-rules-anthropic.ts): every object subschema with the path to it, written the way OpenAI's error
 * text writes it (`('properties', 'etymology')`). Test code of its own, not imported from src/.
 */
type Schema = Record<string, unknown>;

function isSchema(value: unknown): value is Schema {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Every subschema that describes an object (`type: object` or having `properties`), root first. */
export function objectSchemas(root: unknown): { path: string[]; schema: Schema }[] {
  const out: { path: string[]; schema: Schema }[] = [];
  const visit = (s: unknown, path: string[]): void => {
    if (!isSchema(s)) return;
    const type = s.type;
    if (type === "object" || (Array.isArray(type) && type.includes("object")) || isSchema(s.properties)) {
      out.push({ path, schema: s });
    }
    for (const key of ["items", "additionalProperties", "not"]) visit(s[key], [...path, key]);
    for (const key of ["anyOf", "allOf", "oneOf", "prefixItems"]) {
      const list = s[key];
      if (!Array.isArray(list)) continue;
      for (const [i, item] of list.entries()) visit(item, [...path, key, String(i)]);
    }
    for (const key of ["properties", "$defs", "definitions"]) {
      const map = s[key];
      if (isSchema(map)) for (const [name, sub] of Object.entries(map)) visit(sub, [...path, key, name]);
    }
  };
  visit(root, []);
  return out;
}

/** A path as OpenAI's error text shows it: `()` for the root, `('properties', 'a')` below it. */
export function pythonTuple(path: string[]): string {
  if (path.length === 0) return "()";
  return `(${path.map((p) => `'${p}'`).join(", ")}${path.length === 1 ? "," : ""})`;
}

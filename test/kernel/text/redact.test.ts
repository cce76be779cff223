/** Key shapes are redacted whatever the case of their marker; text without a marker comes back as it was. */
import { expect, test } from "bun:test";
import { REDACTED, Redactor } from "../../../src/kernel/text/redact.ts";

const redactor = new Redactor([]);

test("every key shape is redacted, markers in any case", () => {
  const cases: [string, string][] = [
    ["key sk-ant-api03-abcdefgh1234", `key ${REDACTED}`],
    ["sk-proj-abcdefghijklmnop1234", REDACTED],
    ["AIzaSyA0123456789abcdefghijklmnopqrstu", REDACTED],
    ["AUTHORIZATION: Bearer abc.def", `AUTHORIZATION: Bearer ${REDACTED}`],
    ["X-Api-Key: 12345678", `X-Api-Key: ${REDACTED}`],
    ["APIKEY=hunter22", `APIKEY=${REDACTED}`],
    ['{"Api_Key": "v4lue"}', `{"Api_Key": "${REDACTED}"}`],
  ];
  for (const [text, redacted] of cases) expect(redactor.redact(text)).toBe(redacted);
});

test("text with no key marker and no secret value is returned unchanged", () => {
  const text = "line 100: the quick brown fox 693\n\tskip the rest";
  expect(redactor.redact(text)).toBe(text);
  expect(new Redactor(["s3cretvalue"]).redact(`a s3cretvalue b ${text}`)).toBe(`a ${REDACTED} b ${text}`);
});

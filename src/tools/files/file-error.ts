/** A file operation that failed for a reason the model can act on (the message says what and where). */
export class FileError extends Error {
  override name = "FileError";
}

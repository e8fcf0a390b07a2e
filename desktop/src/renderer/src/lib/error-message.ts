/** The sentence of a rejected bridge call or API call. Electron prefixes IPC rejections with where they came from. */
export function errorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/^Error invoking remote method '[^']+': (Error: )?/, '');
}

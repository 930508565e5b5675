/** Go to a route (#/<page>/<arg>…, each part URI-encoded). */
export function go(...parts: string[]): void {
  location.hash = `#/${parts.map(encodeURIComponent).join('/')}`;
}

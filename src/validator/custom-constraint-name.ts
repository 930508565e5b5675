/**
 * A custom constraint's display name as CCTU's scorer can read it in
 * `INSTRUCTION FOLLOWING ERROR: <NAME> NOT FOLLOWED!` (upper-case letters, digits, spaces, underscores;
 * src/schemas/cctu-markers.ts).
 */
export function customConstraintName(name: string): string {
  const cleaned = name.toUpperCase().replace(/[^A-Z0-9 _]+/g, ' ').replace(/\s+/g, ' ').trim();
  return cleaned === '' ? 'CUSTOM CONSTRAINT' : cleaned;
}

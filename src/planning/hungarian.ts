/**
 * Optimal assignment maximising the total weight of a rectangular matrix (rows × columns, weights ≥ 0),
 * by the Hungarian algorithm (Kuhn–Munkres with potentials, O(n²m)). Returns, per row, the assigned column or -1.
 * A pair of weight 0 is never reported as assigned: callers give inadmissible pairs weight 0.
 */
export function maximumWeightAssignment(weights: readonly (readonly number[])[]): number[] {
  const rows = weights.length;
  const columns = rows === 0 ? 0 : (weights[0]?.length ?? 0);
  if (rows === 0 || columns === 0) return new Array<number>(rows).fill(-1);
  // Minimisation on a square matrix of size n (padding with zero-weight cells), cost = max − weight.
  const n = Math.max(rows, columns);
  let maximum = 0;
  for (const row of weights) for (const weight of row) maximum = Math.max(maximum, weight);
  const cost = (row: number, column: number): number =>
    row < rows && column < columns ? maximum - (weights[row]?.[column] ?? 0) : maximum;
  // 1-based arrays as in the classic formulation; p[column] = row matched to column.
  const u = new Float64Array(n + 1);
  const v = new Float64Array(n + 1);
  const p = new Int32Array(n + 1);
  const way = new Int32Array(n + 1);
  for (let row = 1; row <= n; row += 1) {
    p[0] = row;
    let column0 = 0;
    const minimum = new Float64Array(n + 1).fill(Infinity);
    const used = new Uint8Array(n + 1);
    do {
      used[column0] = 1;
      const row0 = p[column0]!;
      let delta = Infinity;
      let column1 = 0;
      for (let column = 1; column <= n; column += 1) {
        if (used[column]) continue;
        const reduced = cost(row0 - 1, column - 1) - u[row0]! - v[column]!;
        if (reduced < minimum[column]!) {
          minimum[column] = reduced;
          way[column] = column0;
        }
        if (minimum[column]! < delta) {
          delta = minimum[column]!;
          column1 = column;
        }
      }
      for (let column = 0; column <= n; column += 1) {
        if (used[column]) {
          u[p[column]!] = u[p[column]!]! + delta;
          v[column] = v[column]! - delta;
        } else {
          minimum[column] = minimum[column]! - delta;
        }
      }
      column0 = column1;
    } while (p[column0] !== 0);
    do {
      const column1 = way[column0]!;
      p[column0] = p[column1]!;
      column0 = column1;
    } while (column0 !== 0);
  }
  const assignment = new Array<number>(rows).fill(-1);
  for (let column = 1; column <= n; column += 1) {
    const row = p[column]! - 1;
    if (row < rows && column - 1 < columns && (weights[row]?.[column - 1] ?? 0) > 0) assignment[row] = column - 1;
  }
  return assignment;
}

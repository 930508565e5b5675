/**
 * The SVG viewBox [x, y, width, height] holding every node box (centre x, y and size, as dagre lays them out) and
 * every edge point, with a margin and the picture's own offset (`shift`, added to every coordinate drawn). dagre's
 * reported graph width leaves out edges it routes around the nodes, so a viewBox of [0, 0, width, height] cut the
 * plan's DAG at its left edge.
 */
export function dagViewBox(nodes: ReadonlyArray<{ x: number; y: number; width: number; height: number }>, points: ReadonlyArray<{ x: number; y: number }>, shift: number, margin = 4): [number, number, number, number] {
  const xs = [...nodes.flatMap((node) => [node.x - node.width / 2, node.x + node.width / 2]), ...points.map((point) => point.x)];
  const ys = [...nodes.flatMap((node) => [node.y - node.height / 2, node.y + node.height / 2]), ...points.map((point) => point.y)];
  if (xs.length === 0) return [0, 0, 2 * shift, 2 * shift];
  const left = Math.min(...xs) + shift - margin;
  const top = Math.min(...ys) + shift - margin;
  return [left, top, Math.max(...xs) + shift + margin - left, Math.max(...ys) + shift + margin - top];
}

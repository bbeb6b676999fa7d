/**
 * Numbers automatically numbered headings the way Word's multilevel heading lists show them
 * ("1", "1.1", "1.1.1"), since the number is not part of the paragraph text.
 */
export function createHeadingNumberer(): (depth: number) => string {
  const counters: number[] = [];
  return (depth) => {
    for (let i = 0; i < depth - 1; i++) counters[i] ??= 1;
    counters.length = depth;
    counters[depth - 1] = (counters[depth - 1] ?? 0) + 1;
    return counters.join('.');
  };
}

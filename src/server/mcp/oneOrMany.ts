/**
 * Items a waiting call mostly has one of (its followers, its signal's listeners): one is held as
 * it is, more in an array. An array per call would be ≈0.1 KB more for thousands of calls.
 */
export type OneOrMany<T> = T | T[] | undefined;

/** The items, in order, as a new array the caller may change. */
export function itemsOf<T>(held: OneOrMany<T>): T[] {
  if (held === undefined) return [];
  return Array.isArray(held) ? [...held] : [held];
}

/** The items with `item` added last; concatenated, as a pushed-to array keeps room for 17. */
export function withItem<T>(held: OneOrMany<T>, item: T): OneOrMany<T> {
  return held === undefined ? item : itemsOf(held).concat(item);
}

/** The items without `item`. */
export function withoutItem<T>(held: OneOrMany<T>, item: T): OneOrMany<T> {
  const left = itemsOf(held).filter((kept) => kept !== item);
  return left.length === 0 ? undefined : left.length === 1 ? left[0] : left;
}

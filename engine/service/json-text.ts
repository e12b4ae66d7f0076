// An answer already encoded as JSON, with the type of what it encodes: the read worker answers
// in text (it runs on another thread), and the server sends that text as it is. The type lets
// the route table still check, at compile time, that a route answers what its entry says.

/** JSON text of a value of type T. */
export class JsonText<T> {
  /** Never set: it only carries T, so a JsonText<A> is not a JsonText<B>. */
  declare readonly encodes?: T;

  constructor(readonly text: string) {}
}

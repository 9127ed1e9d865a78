import type { IncomingMessage } from "node:http";

/** S3: the person whose named token let a request in, for the handlers that record answers. */
const people = new WeakMap<IncomingMessage, string>();

export function rememberPerson(request: IncomingMessage, person: string): void {
  people.set(request, person);
}

export function personOfRequest(request: IncomingMessage): string | undefined {
  return people.get(request);
}

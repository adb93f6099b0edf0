// Stricter built-ins for this client: what JSON.parse and Array.isArray give is `unknown`
// (walked with checks), never `any`, so no value from the API escapes the types unchecked.

interface JSON {
  parse(text: string): unknown;
}

interface ArrayConstructor {
  isArray(arg: unknown): arg is readonly unknown[];
}

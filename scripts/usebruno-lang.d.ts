// The part of Bruno's .bru serializer (@usebruno/lang, plain JavaScript) the tool files use.
declare module '@usebruno/lang' {
  // biome-ignore lint/suspicious/noExplicitAny: Bruno's own JSON shapes, untyped upstream
  type Bru = any;
  export function jsonToBruV2(json: Bru): string;
  export function bruToJsonV2(text: string): Bru;
  export function envJsonToBruV2(json: Bru): string;
  export function bruToEnvJsonV2(text: string): Bru;
  export function jsonToCollectionBru(json: Bru): string;
  export function collectionBruToJson(text: string): Bru;
}

// What a form said about each file it carried (the name and the part's Content-Type), kept beside
// the bytes rather than passed along: areas hand the upload service the bytes they read from the
// form, and the service checks the content against this declaration (sniff.ts, rule 3) without
// every area having to carry it. Bytes that did not come from a form declare nothing.
import type { TDeclaredType } from "./sniff";

const declared = new WeakMap<Uint8Array, TDeclaredType>();

export function rememberDeclaredType(bytes: Uint8Array, type: TDeclaredType) {
  declared.set(bytes, type);
}

export function declaredTypeOf(bytes: Uint8Array): TDeclaredType {
  return declared.get(bytes) ?? {};
}

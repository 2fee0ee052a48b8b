// A worker thread does not inherit the parent's --import hooks: TypeScript is registered here,
// then the reader runs (document-text.worker.ts).
import { register } from "tsx/esm/api";

register();
await import("./document-text.worker.ts");

// V8 flags of the web processes (docs/decisions/0020-web-v8-flags.md). A web worker idles between
// bursts; V8 took each lull for the end of the work: its memory reducer ran full collections back
// to back (50 to 120 ms pauses each on a 160 MB heap, on a CPU the other processes needed), and
// after a few of them its bytecode flushing threw away the code of everything not run lately, so
// the next chat turn compiled its path again on the way to its first token. A server's heap and
// code are its working set: keep them.
import v8 from "node:v8";

export const WEB_V8_FLAGS = ["--no-memory-reducer", "--no-flush-bytecode"];

/** What a running process can still change: bytecode flushing. The memory reducer is set up with the heap, so only the command line turns it off. */
export function applyWebV8Flags() {
  v8.setFlagsFromString("--no-flush-bytecode");
}

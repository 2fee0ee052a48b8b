import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [
    !process.env.VITEST &&
      remix({
        future: {
          v3_fetcherPersist: true,
          v3_relativeSplatPath: true,
          v3_throwAbortReason: true,
          v3_singleFetch: true,
          v3_lazyRouteDiscovery: true,
          v3_routeConfig: true,
        },
      }),
    tsconfigPaths(),
  ],
  build: {
    chunkSizeWarningLimit: 1500,
    // The server stays one file (build/server/index.js) even when pages lazy-load parts in the
    // browser (React.lazy): server modules find their files (locales, migrations) from
    // import.meta.dirname, which a chunk under build/server/assets would move.
    rollupOptions: isSsrBuild ? { output: { inlineDynamicImports: true } } : undefined,
  },
}));

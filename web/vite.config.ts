import { defineConfig } from "vite";

// The dashboard is served by the Go binary under /dashboard/ (web/dashboard.go)
// from dist/, which is committed: the build must give the same bytes twice
// (no timestamps, no source maps, content-hashed file names).
export default defineConfig({
  base: "/dashboard/",
  // React's automatic JSX runtime through esbuild: no Babel plugin is needed
  // for a production build.
  esbuild: { jsx: "automatic" },
  build: {
    outDir: "dist",
    assetsDir: "assets",
    emptyOutDir: true,
    sourcemap: false,
    target: "es2022",
    // Browsers new enough for es2022 support modulepreload: no polyfill.
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
  },
  server: {
    // `npm run dev` against a local `go run ./cmd/switchyard`.
    proxy: { "/graphql": "http://127.0.0.1:8080" },
  },
});

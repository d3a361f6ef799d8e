// The esbuild plugin of scripts/bundle.mjs (and prepare-routes.mjs through it) for `node:` built-ins.
// Plain JavaScript, as bundle.mjs is.
// Node's built-ins read export by export, and only the exports imported: an ESM import of one builds
// its namespace, which reads every export, lazy getters included (node:util's and node:fs's load
// 30-odd internal modules each), and one as CommonJS costs a copy of every export (esbuild's __toESM).
// Each export is a pure expression, which esbuild drops when nothing imports it.
export const builtinsByExport = {
  name: 'builtins-by-export',
  setup(build) {
    // A dynamic import() asks for the whole namespace: left to Node, so that the module above keeps only
    // the exports imported statically. (pkce-challenge's `import("node:crypto")`, in the MCP chunk, made
    // every node:crypto export live in the chunk the start shares, which read `webcrypto` at every start.)
    build.onResolve({ filter: /^node:/ }, ({ path, kind }) =>
      kind === 'dynamic-import' ? { path, external: true } : { path, namespace: 'builtin' },
    )
    build.onLoad({ filter: /.*/, namespace: 'builtin' }, ({ path }) => ({
      contents: [
        `const builtin = process.getBuiltinModule(${JSON.stringify(path)})`,
        ...Object.keys(process.getBuiltinModule(path))
          .filter((name) => /^[A-Za-z_$][\w$]*$/.test(name) && name !== 'default')
          .map((name) => `export const ${name} = /* @__PURE__ */ (() => builtin.${name})()`),
        'export default builtin',
      ].join('\n'),
    }))
  },
}

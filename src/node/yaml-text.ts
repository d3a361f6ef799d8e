// The `yaml` package's text functions, in a module of their own for yaml-codec.ts to load on first
// use. Re-exported statically: the image's self-contained bundle turns a dynamic import() of the
// CommonJS `yaml` itself into a namespace with only `default` (parse and stringify undefined).
export { stringify } from 'yaml'
export { parseYamlData } from './yaml-data-parser.js'

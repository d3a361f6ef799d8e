// What codec.ts loads to write YAML: the `yaml` package's functions as the codec uses them.
// Imported statically: the image's self-contained bundle turns a dynamic import() of the CommonJS
// `yaml` itself into a namespace with only `default` (parse and stringify undefined).
export { stringifyInSlices } from './stringify-slices.js'

import type { YamlCodec } from '../core/http/yaml-data.js'

// yaml is a large module that a default start never needs: it is loaded on first use.
const yaml = () => import('./yaml-text.js')

/** Snapshots as YAML on Node (the `yaml` package, loaded when first needed), parsed within limits and written a slice at a time. */
export const yamlCodec: YamlCodec = {
  parse: async (text) => (await yaml()).parseYamlDataInTurns(text),
  stringify: async (data) => (await yaml()).stringifyInSlices(data),
}

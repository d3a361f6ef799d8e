import { safeIntegers, type YamlCodec, yamlParseOptions } from '../core/http/yaml-data.js'

// yaml is a large module that a default start never needs: it is loaded on first use.
const yaml = () => import('./yaml-text.js')

/** Snapshots as YAML on Node (the `yaml` package, loaded when first needed). */
export const yamlCodec: YamlCodec = {
  parse: async (text) => safeIntegers((await yaml()).parse(text, yamlParseOptions)),
  stringify: async (data) => (await yaml()).stringify(data),
}

import type { YamlCodec } from '../core/http/yaml-data.js'

// yaml is a large module that a default start never needs: it is loaded on first use.
const yaml = () => import('./yaml-text.js')

/** Snapshots as YAML on Node (loaded when first needed): parsed within limits on a worker thread, written a slice at a time. */
export const yamlCodec: YamlCodec = {
  parse: async (text) => (await yaml()).parseYamlOffThread(text),
  stringify: async (data) => (await yaml()).stringifyInSlices(data),
}

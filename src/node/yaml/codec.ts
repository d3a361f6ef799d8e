import type { JsonDataReader } from '../../core/body/data-body.js'
import type { YamlCodec } from '../../core/body/yaml-data.js'

// Loaded on first use, neither needed by a default start: the worker that reads YAML (js-yaml is
// loaded in the worker only), and the `yaml` package that writes it.
const reader = () => import('./off-thread.js')
const writer = () => import('./text.js')

/** Snapshots as YAML on Node (loaded when first needed): parsed within limits on a worker thread, written a slice at a time. */
export const yamlCodec: YamlCodec = {
  parse: async (text) => (await reader()).parseYamlOffThread(text),
  stringify: async (data) => (await writer()).stringifyInSlices(data),
}

/** JSON state and snapshot bodies on Node: a long one parsed on the YAML reader's worker thread (off-thread.ts). */
export const jsonDataReader: JsonDataReader = async (text) => (await reader()).parseJsonOffThread(text)

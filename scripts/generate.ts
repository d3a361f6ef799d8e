import { writeFileSync } from 'node:fs'
import { generatedFiles } from './artefacts.js'

// Regenerates src/generated/ from openapi.yaml, fixtures/pets.yaml and package.json.
for (const [path, text] of Object.entries(await generatedFiles())) {
  writeFileSync(new URL(`../${path}`, import.meta.url), text)
  console.log(`wrote ${path}`)
}

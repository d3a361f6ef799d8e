// Writes the files a recipe page shows (fenced blocks with title="path") into a directory, with the
// extractor the docs tests use, so that the container suite runs the page's files as written.
// Usage: vite-node test/container/extract-recipe.ts <page> <dir>
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { recipeFiles } from '../docs/recipe-files.js'

const [page, dir] = process.argv.slice(2)
if (!page || !dir) throw new Error('usage: extract-recipe.ts <page> <dir>')
for (const file of recipeFiles(page)) {
  const target = join(dir, file.path)
  mkdirSync(dirname(target), { recursive: true })
  writeFileSync(target, file.text)
  if (file.path.endsWith('.sh')) chmodSync(target, 0o755)
  console.log(file.path)
}

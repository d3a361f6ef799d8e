import { readFileSync } from 'node:fs'
import { packageFile } from './paths.js'

/** The package version, read once from package.json. */
export const version: string = JSON.parse(readFileSync(packageFile('package.json'), 'utf8')).version

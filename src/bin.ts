#!/usr/bin/env node
import { main } from './node/main.js'

const code = await main(process.argv.slice(2), process.env)
if (code !== undefined) process.exitCode = code

import { nodeTooOld } from '../core/node-version.js'

// Imported first by index.ts, so that it runs before Testcontainers loads: on a Node.js older than
// Testcontainers 12.2's engines (22.22) its HTTP client (undici) throws at load, a stack that names
// neither Node nor petstore-mock. One line instead.
const tooOld = nodeTooOld('petstore-mock/testcontainers', [22, 22], "as Testcontainers 12.2's engines say")
if (tooOld !== undefined) throw tooOld

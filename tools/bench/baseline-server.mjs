// The floor npm run bench compares with: a bare node:http server answering the same JSON as petstore-mock.
// With --contract it also sends the headers petstore-mock's answers carry (the request id, the no-script
// headers, getPet's lifecycle headers) and a Content-Length, and its pets are the bundled fixtures: the same
// bytes, for what they cost a bare server (test/tools/bench/baseline-server.test.ts holds them equal).
import { createServer } from 'node:http'
const contract = process.argv.includes('--contract')
// Loaded only then: the plain server's start is the start-up floor, and stays what it was.
const { randomUUID } = contract ? await import('node:crypto') : {}
const fixtures = contract
  ? await import('node:fs').then((fs) => fs.readFileSync(new URL('../../fixtures/pets.yaml', import.meta.url), 'utf8'))
  : ''
const names = 'Biscuit Luna Max Cleo Nemo Pepper Rocky Mochi Kiwi Shadow Bella Sunny'.split(' ')
const pets = contract
  ? (await import('yaml')).parse(fixtures).pets
  : names.map((name, i) => ({ id: i + 1, name, categoryId: (i % 5) + 1, status: 'available' }))
let nextId = pets.length + 1
const noScript = { 'content-security-policy': "sandbox; default-src 'none'", 'x-content-type-options': 'nosniff' }
const lifecycle = {
  deprecation: '@0',
  sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
  link: '</v1/pets>; rel="successor-version"',
}
// Header names as each server writes them: Node sends them as given.
const located = contract ? (id) => ({ location: `/v1/pets/${id}` }) : (id) => ({ Location: `/v1/pets/${id}` })
const send = (res, status, value, headers) => {
  if (!contract)
    return res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(value))
  const text = JSON.stringify(value)
  res
    .writeHead(status, {
      'X-Request-Id': randomUUID(),
      'content-type': 'application/json',
      ...noScript,
      ...headers,
      'Content-Length': Buffer.byteLength(text),
    })
    .end(text)
}
createServer((req, res) => {
  if (req.method !== 'POST') {
    const one = req.url.startsWith('/v1/pets/')
    return send(res, 200, one ? pets[6] : pets, one && contract ? lifecycle : undefined)
  }
  let body = ''
  req.setEncoding('utf8').on('data', (s) => (body += s))
  req.on('end', () => send(res, 201, { id: nextId, ...JSON.parse(body) }, located(nextId++)))
}).listen(Number(process.argv[process.argv.indexOf('--port') + 1]) || 0, '127.0.0.1', function () {
  process.stderr.write(`listening on http://127.0.0.1:${this.address().port}\n`)
})

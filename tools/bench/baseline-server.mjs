// The floor npm run bench compares with: a bare node:http server answering the same JSON as petstore-mock.
import { createServer } from 'node:http'
const names = 'Biscuit Luna Max Cleo Nemo Pepper Rocky Mochi Kiwi Shadow Bella Sunny'.split(' ')
const pets = names.map((name, i) => ({ id: i + 1, name, categoryId: (i % 5) + 1, status: 'available' }))
let nextId = pets.length + 1
const send = (res, status, value, headers) =>
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(value))
createServer((req, res) => {
  if (req.method !== 'POST') return send(res, 200, req.url.startsWith('/v1/pets/') ? pets[6] : pets)
  let body = ''
  req.setEncoding('utf8').on('data', (s) => (body += s))
  req.on('end', () => send(res, 201, { id: nextId, ...JSON.parse(body) }, { Location: `/v1/pets/${nextId++}` }))
}).listen(Number(process.argv[process.argv.indexOf('--port') + 1]) || 0, '127.0.0.1', function () {
  process.stderr.write(`listening on http://127.0.0.1:${this.address().port}\n`)
})

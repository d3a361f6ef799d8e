// Keeps 20 connections busy against <base-url> for at most <seconds> (default 10), then exits.
const [base, seconds = '10'] = process.argv.slice(2)
const until = Date.now() + Number(seconds) * 1000
const worker = async () => {
  while (Date.now() < until) {
    try {
      await (await fetch(`${base}/v1/pets`, { headers: { Authorization: 'Bearer smoke-key' } })).text()
    } catch {
      return // the server went away: done
    }
  }
}
await Promise.all(Array.from({ length: 20 }, worker))

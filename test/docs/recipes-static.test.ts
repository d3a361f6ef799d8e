import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse, parseAllDocuments } from 'yaml'
import { legacyName } from '../../src/node/config/environment.js'
import { optionSpecs } from '../../src/node/cli/options.js'
import { type SpawnedServer, spawnServer } from '../helpers/spawn-server.js'
import { recipeCommands, recipeFiles, repoRoot } from './recipe-files.js'
import { bearer } from '../helpers/auth.js'

// The container recipes of docs/recipes (GitHub Actions, compose, Kubernetes) need an engine to run
// whole: here their files are parsed and checked against the repository, and everything in them that
// talks to the mock (admin requests, the jobs' scripts, health checks, data files) runs against the
// built server, configured as the recipe configures the container. npm run test:container runs the
// compose and Kubernetes recipes whole (test/container/recipe-*.sh). The Testcontainers recipe is
// examples/consumer, which npm run test:testcontainers runs: the page must show its files exactly.

const run = promisify(execFile)
const fileOf = (page: string, path: string): string => {
  const file = recipeFiles(page).find((candidate) => candidate.path === path)
  if (!file) throw new Error(`${page} shows no ${path}`)
  return file.text
}
// The recipes may still use the variables' former names, which the command reads (with a note).
const variables = new Set(optionSpecs.flatMap((option) => [option.env, legacyName(option.env)]))
const dockerfile = readFileSync(join(repoRoot, 'Dockerfile'), 'utf8')

let work: string
let server: SpawnedServer
beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'petstore-mock-recipes-'))
  // As the recipes configure the container.
  server = await spawnServer(['--log', 'silent'], {
    PETSTORE_MOCK_API_KEYS: 'ci-key',
    PETSTORE_MOCK_ADMIN_TOKEN: 'ci-admin',
    PETSTORE_MOCK_ALLOWED_HOSTS: 'petstore-mock',
  })
})
afterAll(async () => {
  await server?.stop()
  rmSync(work, { recursive: true, force: true })
})
const admin = bearer('ci-admin')
const reset = () => fetch(`${server.url}/__admin/reset`, { method: 'POST', headers: admin })

/** The words of a shell command line: quotes removed, `\` line continuations joined (no expansion). */
const words = (line: string): string[] =>
  [...line.replace(/\\\n/g, ' ').matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map(
    ([, single, double, bare]) => single ?? double ?? bare!,
  )

/** The `curl` requests of a script, as fetch arguments against `origin` ($MOCK). */
const curlRequests = (script: string, page: string) =>
  script
    .replace(/\\\n/g, ' ')
    .split('\n')
    .filter((line) => /^\s*curl /.test(line) && /\$(MOCK|SESSION)\b/.test(line))
    .map((line) => {
      const argv = words(line)
      const option = (name: string) => argv[argv.indexOf(name) + 1]
      // $SESSION is the run's session base URL (the workflow's env: /sessions/ci).
      const url = argv
        .find((word) => word.startsWith('$MOCK') || word.startsWith('$SESSION'))!
        .replace('$MOCK', '')
        .replace('$SESSION', '/sessions/ci')
      const binary = option('--data-binary')
      const body = argv.includes('-d')
        ? option('-d')
        : binary?.startsWith('@')
          ? fileOf(page, binary.slice(1))
          : undefined
      const method = argv.includes('-X') ? option('-X')! : body === undefined ? 'GET' : 'POST'
      const headers: Record<string, string> = {}
      argv.forEach((word, i) => {
        if (word !== '-H') return
        const value = argv[i + 1] === '$ADMIN' ? 'Authorization: Bearer ci-admin' : argv[i + 1]!
        const [name, ...rest] = value.split(':')
        headers[name!] = rest.join(':').trim()
      })
      return { method, url, init: { method, headers, body } }
    })

describe('docs/recipes/github-actions.md', () => {
  const page = 'docs/recipes/github-actions.md'
  const workflow = parse(fileOf(page, '.github/workflows/test.yml')) as {
    jobs: { test: { env: Record<string, string>; steps: { run?: string; uses?: string; with?: { path?: string } }[] } }
  }
  const { steps, env } = workflow.jobs.test
  const scripts = steps.flatMap((step) => (step.run === undefined ? [] : [step.run]))

  it('builds the image from the petstore-mock checkout, then starts it with real variables', () => {
    const checkout = steps.find((step) => step.with?.path)!.with!.path!
    expect(scripts).toContain(`docker build -t petstore-mock ${checkout}`)
    const start = scripts.find((script) => script.includes('docker run'))!
    const argv = words(start.split('\n')[0]! + start.split('\n')[1]!)
    expect(argv.at(-1)).toBe('petstore-mock')
    const given = argv.flatMap((word, i) => (argv[i - 1] === '-e' ? [word.split('=')[0]!] : []))
    expect(given).toEqual(['PETSTORE_MOCK_API_KEYS', 'PETSTORE_MOCK_ADMIN_TOKEN'])
    for (const name of given) expect(variables).toContain(name)
    expect(argv).toContain('4010:4010')
    expect(dockerfile).toMatch(/^ENV PETSTORE_MOCK_HOST=0\.0\.0\.0 PETSTORE_MOCK_PORT=4010 /m)
    expect(env).toEqual({
      MOCK: 'http://127.0.0.1:4010',
      SESSION: 'http://127.0.0.1:4010/sessions/ci',
      ADMIN: 'Authorization: Bearer ci-admin',
    })
  })

  it('every admin request it sends succeeds against the mock (as curl -f requires)', async () => {
    await reset()
    const requests = scripts.flatMap((script) => curlRequests(script, page))
    expect(requests.map(({ method, url }) => `${method} ${url}`)).toEqual([
      'PUT /sessions/ci/__admin/state',
      'POST /sessions/ci/__admin/faults',
      'GET /sessions/ci/__admin/requests?operation=createPet',
      'GET /sessions/ci/__admin/requests.har',
    ])
    for (const { method, url, init } of requests) {
      const res = await fetch(`${server.url}${url}`, init)
      expect(res.status, `${method} ${url}: ${await res.clone().text()}`).toBeLessThan(300)
    }
    // The wait for the mock: health, without the token.
    expect(scripts.join('\n')).toContain(`until curl -fsS "$MOCK/__admin/health"; do sleep 1; done`)
    expect((await fetch(`${server.url}/__admin/health`)).status).toBe(200)
    const { pets } = JSON.parse(fileOf(page, 'ci/petstore-pets.json')) as { pets: unknown[] }
    expect(await (await fetch(`${server.url}/sessions/ci/__admin/state`, { headers: admin })).json()).toEqual({ pets })
  })
})

describe('docs/recipes/compose.md', () => {
  const page = 'docs/recipes/compose.md'
  interface Service {
    image: string
    environment?: Record<string, string>
    healthcheck?: { test: string[] }
    command?: string[]
    volumes?: string[]
  }
  const ci = parse(fileOf(page, 'compose.ci.yaml')) as { services: Record<string, Service> }
  const dev = parse(fileOf(page, 'compose.yaml')) as { services: Record<string, Service> }

  /** Runs a job's `node -e` script against the mock: its host name and mounted files replaced. */
  const job = (script: string, files: Record<string, string> = {}) => {
    let text = script.replaceAll('http://petstore:4010', server.url).replaceAll('http://127.0.0.1:4010', server.url)
    for (const [inContainer, here] of Object.entries(files)) text = text.replaceAll(inContainer, here)
    return run(process.execPath, ['-e', text]).then(
      () => 0,
      (error: { code: number }) => error.code,
    )
  }

  it('uses the image the page builds, and real variables', () => {
    expect(recipeCommands(page)[0]).toBe('docker build -t petstore-mock .')
    for (const services of [ci.services, dev.services]) {
      expect(services['petstore']!.image).toBe('petstore-mock')
      for (const name of Object.keys(services['petstore']!.environment!)) expect(variables).toContain(name)
    }
  })

  it("the compose file's health check passes against the mock", async () => {
    for (const services of [ci.services, dev.services]) {
      const [kind, node, flag, script] = services['petstore']!.healthcheck!.test
      expect([kind, node, flag]).toEqual(['CMD', 'node', '-e'])
      expect(await job(script!)).toBe(0)
    }
  })

  it('load sets the preconditions; verify fails until the service created Rex, then passes', async () => {
    await reset()
    const pets = join(work, 'pets.json')
    writeFileSync(pets, fileOf(page, 'ci/petstore-pets.json'))
    expect(ci.services['load']!.volumes).toEqual(['./ci/petstore-pets.json:/ci/pets.json:ro'])
    expect(await job(ci.services['load']!.command![0]!, { '/ci/pets.json': pets })).toBe(0)
    expect(await job(ci.services['verify']!.command![0]!)).not.toBe(0)
    // The service under test: its first create meets the rule load installed, it retries.
    const create = () =>
      fetch(`${server.url}/v1/pets`, {
        method: 'POST',
        headers: { ...bearer('ci-key'), 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
      })
    expect((await create()).status).toBe(503)
    expect((await create()).status).toBe(201)
    expect(await job(ci.services['verify']!.command![0]!)).toBe(0)
  })

  it('the step-by-step script is valid sh and runs the services of compose.ci.yaml', async () => {
    const script = fileOf(page, 'ci/compose-test.sh')
    writeFileSync(join(work, 'compose-test.sh'), script)
    await run('sh', ['-n', join(work, 'compose-test.sh')])
    const ran = [...script.matchAll(/(?:up -d|exec -T|^job) (\w+)/gm)].map(([, service]) => service)
    expect(ran).toEqual(['petstore', 'petstore', 'load', 'tests', 'verify'])
    for (const service of ran) expect(ci.services).toHaveProperty(service!)
    // The same probe as the health check, printed rather than exited: podman-compose's exec always exits 0.
    const probe = ci.services['petstore']!.healthcheck!.test[3]!
    expect(script).toContain(
      probe.replace(
        'process.exit(r.ok ? 0 : 1), () => process.exit(1)',
        "console.log(r.ok ? 'healthy' : r.status), () => {}",
      ),
    )
    // No compose command piped into a reader that stops early (grep -q, head): podman-compose prints
    // "exit code: N" after the command's output, and a closed pipe makes Python print a BrokenPipeError.
    expect(script).not.toMatch(/\|\s*(?:grep\s+-\w*q|head\b)/)
    // npm run test:container runs the script with podman-compose (or docker compose) and the image.
  })

  it('my-pets.yaml is what PETSTORE_MOCK_FIXTURES loads', async () => {
    const path = join(work, 'my-pets.yaml')
    writeFileSync(path, fileOf(page, 'my-pets.yaml'))
    const mock = await spawnServer(['--log', 'silent'], {
      PETSTORE_MOCK_FIXTURES: path,
      PETSTORE_MOCK_API_KEYS: 'dev-key',
    })
    try {
      const res = await fetch(`${mock.url}/v1/pets`, { headers: bearer('dev-key') })
      expect(await res.json()).toEqual((parse(fileOf(page, 'my-pets.yaml')) as { pets: unknown[] }).pets)
    } finally {
      await mock.stop()
    }
  })
})

describe('docs/recipes/kubernetes.md', () => {
  const page = 'docs/recipes/kubernetes.md'
  const [deployment, service] = parseAllDocuments(fileOf(page, 'petstore-mock.yaml')).map((doc) => doc.toJS())
  const container = deployment.spec.template.spec.containers[0]

  it('matches the image: its port, its user, its variables', () => {
    expect(dockerfile).toMatch(/^EXPOSE 4010$/m)
    expect(dockerfile).toMatch(/^USER node$/m) // uid 1000 in the node images
    expect(container.ports).toEqual([{ containerPort: 4010 }])
    expect(container.securityContext).toEqual({ runAsUser: 1000, runAsNonRoot: true, readOnlyRootFilesystem: true })
    for (const { name } of container.env) expect(variables).toContain(name)
    expect(service.spec.ports).toEqual([{ port: 4010, targetPort: 4010 }])
    expect(service.spec.selector).toEqual(deployment.spec.selector.matchLabels)
  })

  it('the probes get 200 without a token, from the pod IP, on a protected mock', async () => {
    expect(container.readinessProbe.httpGet).toEqual({ path: '/__admin/health/ready', port: 4010 })
    expect(container.livenessProbe.httpGet).toEqual({ path: '/__admin/health/live', port: 4010 })
    for (const probe of [container.readinessProbe, container.livenessProbe]) {
      const { port } = new URL(server.url)
      // What the kubelet sends: the pod's IP as Host, no Authorization.
      const res = await new Promise<number>((resolve, reject) => {
        import('node:http').then(({ get }) =>
          get({ host: '127.0.0.1', port, path: probe.httpGet.path, headers: { Host: `10.1.2.3:${port}` } }, (r) => {
            r.resume()
            resolve(r.statusCode!)
          }).on('error', reject),
        )
      })
      expect(res).toBe(200)
    }
    // The rest of /__admin is protected: the token, and the Host named in ALLOWED_HOSTS.
    expect((await fetch(`${server.url}/__admin/requests`)).status).toBe(401)
  })
})

describe('docs/recipes/kubernetes.md: the names /__admin answers', () => {
  const page = 'docs/recipes/kubernetes.md'
  const [deployment] = parseAllDocuments(fileOf(page, 'petstore-mock.yaml')).map((doc) => doc.toJS())
  const env = Object.fromEntries(
    (deployment.spec.template.spec.containers[0].env as { name: string; value?: string }[])
      .filter((variable) => variable.value !== undefined)
      .map((variable) => [variable.name, variable.value!]),
  )
  let mock: SpawnedServer
  beforeAll(async () => {
    // As the manifest configures the container (the token stands for the Secret's), on loopback.
    mock = await spawnServer(['--log', 'silent'], { ...env, PETSTORE_MOCK_ADMIN_TOKEN: 'k8s-admin' })
  })
  afterAll(() => mock?.stop())

  /** GET /__admin/requests with the token, naming `host` (fetch cannot set Host). */
  const adminAs = (host: string) =>
    new Promise<number>((resolve, reject) => {
      const { port } = new URL(mock.url)
      import('node:http').then(({ get }) =>
        get(
          {
            host: '127.0.0.1',
            port,
            path: '/__admin/requests',
            headers: { Host: host, ...bearer('k8s-admin') },
          },
          (res) => {
            res.resume()
            resolve(res.statusCode!)
          },
        ).on('error', reject),
      )
    })

  it.each([
    ['petstore-mock:4010', 200],
    // The short forms would need a `*` in the last two labels, which --allowed-hosts refuses (issue 40 §4).
    ['petstore-mock.default:4010', 403],
    ['petstore-mock.ci.svc', 403],
    ['petstore-mock.default.svc.cluster.local:4010', 200],
    ['petstore-mock.team-a.svc.cluster.local', 200],
    ['petstore-mock.a.b', 403],
    ['other.default.svc.cluster.local', 403],
    ['evil.example', 403],
  ])('Host %s → %i', async (host, status) => {
    expect(await adminAs(host)).toBe(status)
  })
})

describe('docs/ci.md', () => {
  const page = 'docs/ci.md'

  it('shows the files its start command reads; the mock starts with them and they do as they say', async () => {
    // verify-pact.mjs, the provider team's verification, is run by test/docs/coverage-pact-docs.test.ts.
    expect(recipeFiles(page).map((file) => file.path)).toEqual(['verify-pact.mjs', 'ci/faults.yaml', 'ci/pets.yaml'])
    // The start command: flags (the coverage and pact subcommands on the page are words).
    const command = recipeCommands(page).find((line) => line.startsWith('npx petstore-mock --'))
    expect(command).toBe('npx petstore-mock --faults ci/faults.yaml --fixtures ci/pets.yaml')
    mkdirSync(join(work, 'ci'), { recursive: true })
    for (const file of recipeFiles(page).filter((file) => file.path.startsWith('ci/'))) {
      writeFileSync(join(work, file.path), file.text)
    }
    const args = command!
      .split(' ')
      .slice(2)
      .map((arg) => (arg.startsWith('ci/') ? join(work, arg) : arg))
    const mock = await spawnServer([...args, '--log', 'silent'])
    try {
      const headers = { ...bearer('ci'), 'Content-Type': 'application/json' }
      const listed = await fetch(`${mock.url}/v1/pets`, { headers })
      expect(await listed.json()).toEqual((parse(fileOf(page, 'ci/pets.yaml')) as { pets: unknown[] }).pets)
      const create = () =>
        fetch(`${mock.url}/v1/pets`, { method: 'POST', headers, body: JSON.stringify({ name: 'Ada', categoryId: 1 }) })
      expect([(await create()).status, (await create()).status]).toEqual([503, 503])
      const created = await create()
      expect([created.status, created.headers.get('Location')]).toEqual([201, '/v1/pets/4'])
      const started = performance.now()
      expect((await fetch(`${mock.url}/v1/pets/2`, { headers })).status).toBe(504)
      expect(performance.now() - started).toBeGreaterThanOrEqual(450)
      expect((await fetch(`${mock.url}/v1/pets/1`, { headers })).status).toBe(200)
    } finally {
      await mock.stop()
    }
  })
})

describe('docs/recipes/testcontainers.md', () => {
  const page = 'docs/recipes/testcontainers.md'

  it('shows the files of examples/consumer exactly (npm run test:testcontainers runs them)', () => {
    const files = recipeFiles(page)
    expect(files.map((file) => file.path)).toEqual(['src/pet-names.ts', 'test/pet-names.test.ts', 'vitest.config.ts'])
    for (const file of files) {
      expect(file.text, file.path).toBe(readFileSync(join(repoRoot, 'examples/consumer', file.path), 'utf8'))
    }
  })

  it('makes its project as examples/consumer is: "type": "module", so that vitest.config.ts loads as one', () => {
    expect(recipeCommands(page).slice(0, 2)).toEqual(['npm init -y', 'npm pkg set type=module'])
    expect(JSON.parse(readFileSync(join(repoRoot, 'examples/consumer/package.json'), 'utf8'))).toMatchObject({
      type: 'module',
    })
  })

  it('builds the image the module starts by default', () => {
    const { version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }
    expect(recipeCommands(page)).toContain(`docker build -t petstore-mock:${version} .`)
  })
})

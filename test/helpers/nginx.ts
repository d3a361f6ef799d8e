import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { freePort } from './free-port.js'

/** Debian's nginx. */
export const nginxPath = process.env['NGINX'] ?? '/usr/sbin/nginx'

/** The proxy part deploy/compose.yaml's nginx includes: the test includes the very same file. */
export const sharedProxyConf = fileURLToPath(new URL('../../deploy/nginx/petstore-proxy.conf', import.meta.url))

/** Installs Debian's nginx when it is missing. */
export const ensureNginx = (): void => {
  if (existsSync(nginxPath)) return
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'nginx'], { stdio: 'ignore' })
}

/** An nginx of a test's own, round robin over `upstreams` (host:port), stopped by its PID. */
export interface LoadBalancer {
  url: string
  child: ChildProcess
  /** The upstream (host:port) of each request proxied so far, in order. */
  upstreams(): string[]
  stop(): Promise<void>
}

/**
 * Starts nginx on a free loopback port with its own prefix directory and the shared proxy configuration;
 * `maxBodySize` (nginx's size syntax) replaces its `client_max_body_size`, which the shared file keeps
 * above the replicas' --body-limit ("raise both together"): as a deployment whose replicas take larger
 * bodies raises it.
 */
export const startLoadBalancer = async (
  upstreams: readonly string[],
  options: { maxBodySize?: string } = {},
): Promise<LoadBalancer> => {
  ensureNginx()
  const dir = mkdtempSync(join(tmpdir(), 'petstore-nginx-'))
  let proxyConf = sharedProxyConf
  if (options.maxBodySize !== undefined) {
    const shared = readFileSync(sharedProxyConf, 'utf8')
    const raised = shared.replace(/client_max_body_size \S+;/, `client_max_body_size ${options.maxBodySize};`)
    if (raised === shared) throw new Error(`no client_max_body_size to raise in ${sharedProxyConf}`)
    proxyConf = join(dir, 'petstore-proxy.conf')
    writeFileSync(proxyConf, raised)
  }
  const port = await freePort()
  const conf = `
pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
${process.getuid?.() === 0 ? 'user root;' : ''}
worker_processes 1;
events {}
http {
    client_body_temp_path ${dir}/body;
    proxy_temp_path ${dir}/proxy;
    fastcgi_temp_path ${dir}/fastcgi;
    uwsgi_temp_path ${dir}/uwsgi;
    scgi_temp_path ${dir}/scgi;
    log_format upstream '$upstream_addr';
    access_log ${dir}/access.log upstream;
    upstream petstore {
${upstreams.map((u) => `        server ${u};`).join('\n')}
        keepalive 8;
        keepalive_timeout 4s;
    }
    server {
        listen 127.0.0.1:${port};
        include ${proxyConf};
    }
}
`
  writeFileSync(join(dir, 'nginx.conf'), conf)
  const child = spawn(nginxPath, ['-p', `${dir}/`, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let err = ''
  child.stderr!.on('data', (chunk) => (err += chunk))
  const url = `http://127.0.0.1:${port}`
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${err} ${readFileSync(join(dir, 'error.log'), 'utf8')}`)
    const ok = await fetch(`${url}/__admin/health`).then(
      (res) => res.ok,
      () => false,
    )
    if (ok) break
    if (attempt >= 50) {
      child.kill('SIGKILL')
      throw new Error(`nginx did not answer in time: ${err}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return {
    url,
    child,
    upstreams: () => readFileSync(join(dir, 'access.log'), 'utf8').split('\n').filter(Boolean),
    stop: async () => {
      child.kill('SIGQUIT')
      await exited
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

import { render } from 'preact'
import { App } from './app.js'
import { TokenBroker } from './api/token-broker.js'

const sessionKey = 'petstore-mock.session'

// sessionStorage throws where storage is disabled: the panel then remembers nothing.
const storage = ((): Storage | undefined => {
  try {
    return window.sessionStorage
  } catch {
    return undefined
  }
})()

// Opened under a session prefix (/sessions/<name>/__admin/), the panel shows that session first.
const prefixed = /^\/sessions\/([A-Za-z0-9._-]{1,64})\/__admin(\/|$)/.exec(window.location.pathname)?.[1]

const data = document.body.dataset
render(
  <App
    operations={(data['operations'] ?? '').split(' ').filter(Boolean)}
    version={data['version'] ?? ''}
    tokens={new TokenBroker(storage)}
    session={prefixed ?? storage?.getItem(sessionKey) ?? 'default'}
    remember={(session) => storage?.setItem(sessionKey, session)}
  />,
  document.getElementById('app')!,
)
// The browser test reads this mark: the time from navigation to the first render.
performance.mark('panel-rendered')

import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

// WCAG 2.2 contrast (1.4.3 text: 4.5:1; 1.4.11 focus indicators and control borders: 3:1) of every
// colour pair the panel's stylesheet uses. The colours are the custom properties of its :root.
const css = readFileSync(new URL('../../src/panel/panel.css', import.meta.url), 'utf8')
const rootBlock = /:root\s*{([^}]*)}/.exec(css)![1]!
const colours = Object.fromEntries(
  [...rootBlock.matchAll(/--([\w-]+):\s*(#[0-9a-f]{6})\s*;/gi)].map(([, name, hex]) => [name!, hex!.toLowerCase()]),
)

const luminance = (hex: string): number => {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  })
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!
}
/** The WCAG contrast ratio of two colours. */
const contrast = (a: string, b: string): number => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x)
  return (hi! + 0.05) / (lo! + 0.05)
}

// [foreground, background] as the stylesheet combines them.
const text: [string, string][] = [
  ['text', 'bg'],
  ['text', 'surface'],
  ['text', 'surface-alt'],
  ['text', 'selected'],
  ['text', 'hover'],
  ['muted', 'surface'],
  ['muted', 'surface-alt'],
  ['muted', 'bg'],
  ['muted', 'selected'],
  ['muted', 'hover'],
  ['on-topbar', 'topbar'],
  ['on-topbar-muted', 'topbar'],
  ['on-primary', 'primary'],
  ['on-primary', 'primary-hover'],
  ['primary', 'surface'],
  ['danger', 'surface'],
  ['danger', 'danger-bg'],
  // An answer beyond the contract, in a selected or hovered row of the requests.
  ['danger', 'selected'],
  ['danger', 'surface-alt'],
  ['ok', 'ok-bg'],
  ['redirect', 'redirect-bg'],
  ['client', 'client-bg'],
  ['server', 'server-bg'],
  ['reset', 'reset-bg'],
]
const nonText: [string, string][] = [
  ['focus', 'surface'],
  ['focus', 'bg'],
  ['focus', 'selected'],
  ['focus-on-dark', 'topbar'],
  ['control-border', 'surface'],
  ['danger', 'surface'],
  ['primary', 'surface'],
  ['live', 'surface'],
  ['waiting', 'surface'],
]
// Decorative only: separators and card outlines carry no information.
const decorative = ['line']

describe('panel colours (WCAG AA)', () => {
  it('every colour of the stylesheet is a custom property checked here', () => {
    const outsideRoot = css.replace(rootBlock, '')
    expect(outsideRoot.match(/#[0-9a-f]{3,8}\b/gi) ?? []).toEqual([])
    const used = new Set([...text, ...nonText].flat().concat(decorative))
    expect(Object.keys(colours).filter((name) => !used.has(name))).toEqual([])
  })

  it.each(text)('text %s on %s is at least 4.5:1', (fg, bg) => {
    expect(contrast(colours[fg]!, colours[bg]!)).toBeGreaterThanOrEqual(4.5)
  })

  it.each(nonText)('%s on %s is at least 3:1', (fg, bg) => {
    expect(contrast(colours[fg]!, colours[bg]!)).toBeGreaterThanOrEqual(3)
  })

  it('the formula matches known values', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5)
    expect(contrast('#767676', '#ffffff')).toBeCloseTo(4.54, 2)
  })
})

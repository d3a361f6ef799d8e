import { expect } from 'vitest'
import type { BatteryReport } from './hostile-battery.js'

/**
 * What every run of the battery must show (issue 29): no 5xx but for memory (507 with the Error body),
 * every 201 read back, health and the control session answered 200 throughout, and the budget
 * reached (seeds and creates refused) after creates were answered.
 */
export const expectBatteryHeld = (report: BatteryReport): void => {
  expect(report.badFailures).toEqual([])
  expect(report.lost).toEqual([])
  expect(report.health.every((status) => status === 200)).toBe(true)
  expect(report.control.every((status) => status === 200)).toBe(true)
  expect(report.statuses[507]).toBeGreaterThan(0)
  expect(report.statuses[201]).toBeGreaterThan(0)
}

// Tests assert on JSON bodies directly; the contract check has already validated their shape.
declare global {
  interface Response {
    json(): Promise<any>
  }
}
export {}

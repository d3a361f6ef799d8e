import { builtAnswer } from './respond.js'
import { answerAsBuilt } from './stage.js'

/** What an `Error` body says: its `code` and `message`. */
export interface ErrorParts {
  code: string
  message: string
}

/** The `code` and `message` of an `Error` body's JSON text; undefined for anything else. */
export const errorOfText = (text: string | null): ErrorParts | undefined => {
  if (text === null) return undefined
  try {
    const body = JSON.parse(text) as Partial<ErrorParts>
    return typeof body.code === 'string' && typeof body.message === 'string'
      ? { code: body.code, message: body.message }
      : undefined
  } catch {
    return undefined
  }
}

/**
 * The `Error` body of an answer the mock built (respond.ts keeps its text beside it, and a copy
 * CORS made knows the answer it came from), read without touching the sent body; undefined when
 * it is no error or was built otherwise.
 */
export const errorOfBuilt = (res: Response): ErrorParts | undefined =>
  res.status < 400 ? undefined : errorOfText(builtAnswer(answerAsBuilt(res))?.text ?? null)

/** {@link errorOfBuilt}, else the body read from a copy (an answer hono built: the control plane's). */
export const errorOfAnswer = async (res: Response): Promise<ErrorParts | undefined> => {
  if (res.status < 400) return undefined
  return (
    errorOfBuilt(res) ??
    errorOfText(
      await res
        .clone()
        .text()
        .catch(() => null),
    )
  )
}

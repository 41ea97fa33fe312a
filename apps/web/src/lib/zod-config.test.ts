import { expect, test } from 'vitest'
import { config, z } from 'zod'
import './zod-config.ts'

test('zod runs jitless, so it never probes eval under the CSP', () => {
	expect(config().jitless).toBe(true)
	// Still parses as before.
	expect(z.object({ a: z.string() }).parse({ a: 'x' })).toEqual({ a: 'x' })
})

import { z } from 'zod'

export const idSchema = z.string().min(1).max(64)

export const okSchema = z.object({ success: z.literal(true) })
export type Ok = z.infer<typeof okSchema>

export const emailSchema = z
	.email()
	.max(254)
	.transform((value) => value.toLowerCase())

export const passwordSchema = z.string().min(8, 'Use at least 8 characters.').max(128, 'Use at most 128 characters.')

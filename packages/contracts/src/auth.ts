import { z } from 'zod'
import { emailSchema, passwordSchema } from './common.ts'

export const userSchema = z.object({
	id: z.string(),
	name: z.string(),
	email: z.string(),
	emailVerified: z.boolean(),
	image: z.string().nullable(),
	createdAt: z.iso.datetime(),
	activeOrganizationId: z.string().nullable(),
})
export type User = z.infer<typeof userSchema>

export const validateTokenResponseSchema = z.object({
	success: z.literal(true),
	data: userSchema,
})
export type ValidateTokenResponse = z.infer<typeof validateTokenResponseSchema>

export const passwordResetRequestSchema = z.object({ email: emailSchema })
export type PasswordResetRequest = z.infer<typeof passwordResetRequestSchema>

export const passwordResetSchema = z.object({
	token: z.string().min(1).max(200),
	password: passwordSchema,
})
export type PasswordReset = z.infer<typeof passwordResetSchema>

export const confirmUserSchema = z.object({ token: z.string().min(1).max(2000) })
export type ConfirmUser = z.infer<typeof confirmUserSchema>

export const messageResponseSchema = z.object({ success: z.literal(true), message: z.string() })
export type MessageResponse = z.infer<typeof messageResponseSchema>

/** A confirmed signup (subscribing without an account) also says where to go: choose a password, or sign in. */
export const confirmUserResultSchema = messageResponseSchema.extend({ next: z.string().optional() })
export type ConfirmUserResult = z.infer<typeof confirmUserResultSchema>

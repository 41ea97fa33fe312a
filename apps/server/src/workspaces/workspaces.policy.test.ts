import { describe, expect, test } from 'vitest'
import { canDeleteDatabase, canRemoveWorkspace } from './workspaces.policy.ts'

describe('workspace policy', () => {
	test('owners and admins disconnect or delete workspaces; members do not', () => {
		expect(canRemoveWorkspace('owner')).toBe(true)
		expect(canRemoveWorkspace('admin')).toBe(true)
		expect(canRemoveWorkspace('member')).toBe(false)
	})

	test('owners and admins delete databases; members do not', () => {
		expect(canDeleteDatabase('owner')).toBe(true)
		expect(canDeleteDatabase('admin')).toBe(true)
		expect(canDeleteDatabase('member')).toBe(false)
	})
})

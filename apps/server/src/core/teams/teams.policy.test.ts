import { describe, expect, test } from 'vitest'
import { canAssignRole, canManageMembers, canRemoveMember } from './teams.policy.ts'

describe('team policy', () => {
	test('only owners and admins manage members', () => {
		expect(canManageMembers('owner')).toBe(true)
		expect(canManageMembers('admin')).toBe(true)
		expect(canManageMembers('member')).toBe(false)
	})

	test('admins cannot remove owners; members cannot remove anyone', () => {
		expect(canRemoveMember('owner', 'owner')).toBe(true)
		expect(canRemoveMember('admin', 'owner')).toBe(false)
		expect(canRemoveMember('admin', 'admin')).toBe(true)
		expect(canRemoveMember('admin', 'member')).toBe(true)
		expect(canRemoveMember('member', 'member')).toBe(false)
	})

	test('only owners grant or take the owner role', () => {
		expect(canAssignRole('owner', 'member', 'owner')).toBe(true)
		expect(canAssignRole('admin', 'member', 'owner')).toBe(false)
		expect(canAssignRole('admin', 'owner', 'member')).toBe(false)
		expect(canAssignRole('admin', 'member', 'admin')).toBe(true)
		expect(canAssignRole('member', 'member', 'admin')).toBe(false)
	})
})

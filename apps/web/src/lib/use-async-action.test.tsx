import { act, renderHook } from '@testing-library/react'
import { describe, expect, test, vi } from 'vitest'
import { useAsyncAction } from './use-async-action.ts'

describe('useAsyncAction', () => {
	test('goes pending, then success with the result, and calls onSuccess', async () => {
		let resolve: (value: string) => void = () => {}
		const onSuccess = vi.fn()
		const { result } = renderHook(() =>
			useAsyncAction((name: string) => new Promise<string>((r) => (resolve = (v) => r(`${v} ${name}`))), { onSuccess }),
		)
		let done: Promise<void> = Promise.resolve()
		act(() => {
			done = result.current.run('Ada')
		})
		expect(result.current.isPending).toBe(true)
		await act(async () => {
			resolve('hello')
			await done
		})
		expect(result.current).toMatchObject({ isPending: false, isSuccess: true, data: 'hello Ada' })
		expect(onSuccess).toHaveBeenCalledWith('hello Ada', 'Ada')
	})

	test('a failure is kept as the error and passed to onError', async () => {
		const onError = vi.fn()
		const failure = new Error('nope')
		const { result } = renderHook(() => useAsyncAction(() => Promise.reject(failure), { onError }))
		await act(() => result.current.run(undefined))
		expect(result.current).toMatchObject({ isError: true, error: failure })
		expect(onError).toHaveBeenCalledWith(failure)
	})

	test('only the latest run decides the state', async () => {
		const resolvers: ((value: number) => void)[] = []
		const { result } = renderHook(() => useAsyncAction((_n: number) => new Promise<number>((r) => resolvers.push(r))))
		let first: Promise<void> = Promise.resolve()
		let second: Promise<void> = Promise.resolve()
		act(() => {
			first = result.current.run(1)
			second = result.current.run(2)
		})
		await act(async () => {
			resolvers[1]?.(2)
			await second
			resolvers[0]?.(1)
			await first
		})
		expect(result.current.data).toBe(2)
	})
})

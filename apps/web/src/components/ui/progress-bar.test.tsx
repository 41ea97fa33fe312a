import { act, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { PROGRESS_HEIGHT_PX, PROGRESS_START, PROGRESS_STOP_DELAY_MS, ProgressBar } from './progress-bar.tsx'

const percentShown = () => Number(screen.getByRole('progressbar').getAttribute('aria-valuenow'))

describe('ProgressBar', () => {
	beforeEach(() => {
		vi.useFakeTimers()
	})
	afterEach(() => {
		vi.useRealTimers()
	})

	it('uses the spec values', () => {
		expect(PROGRESS_START).toBe(0.3)
		expect(PROGRESS_STOP_DELAY_MS).toBe(200)
		expect(PROGRESS_HEIGHT_PX).toBe(3)
	})

	it('is not there while idle', () => {
		render(<ProgressBar isActive={false} />)
		expect(screen.queryByRole('progressbar')).toBeNull()
	})

	it('starts at 30 %, 3 px high at the top, and trickles up without reaching the end', () => {
		const { rerender } = render(<ProgressBar isActive={false} />)
		rerender(<ProgressBar isActive />)

		const bar = screen.getByRole('progressbar', { name: 'Loading page' })
		expect(bar).toHaveAttribute('aria-busy', 'true')
		expect(percentShown()).toBe(30)
		expect(bar.style.height).toBe('3px')
		expect((bar.firstElementChild as HTMLElement).style.transform).toBe('scaleX(0.3)')

		act(() => vi.advanceTimersByTime(1_000))
		const afterASecond = percentShown()
		expect(afterASecond).toBeGreaterThan(30)

		act(() => vi.advanceTimersByTime(60_000))
		expect(percentShown()).toBeGreaterThan(afterASecond)
		expect(percentShown()).toBeLessThanOrEqual(90)
	})

	it('completes, then hides 200 ms after stopping', () => {
		const { rerender } = render(<ProgressBar isActive />)
		act(() => vi.advanceTimersByTime(500))
		rerender(<ProgressBar isActive={false} />)

		expect(percentShown()).toBe(100)
		expect(screen.getByRole('progressbar')).toHaveAttribute('aria-busy', 'false')

		act(() => vi.advanceTimersByTime(PROGRESS_STOP_DELAY_MS - 1))
		expect(screen.getByRole('progressbar')).toBeInTheDocument()
		act(() => vi.advanceTimersByTime(1))
		expect(screen.queryByRole('progressbar')).toBeNull()
	})

	it('starts over from 30 % when work begins again before it has hidden', () => {
		const { rerender } = render(<ProgressBar isActive />)
		rerender(<ProgressBar isActive={false} />)
		act(() => vi.advanceTimersByTime(100))
		rerender(<ProgressBar isActive />)
		expect(percentShown()).toBe(30)

		act(() => vi.advanceTimersByTime(1_000))
		expect(screen.getByRole('progressbar')).toHaveAttribute('aria-busy', 'true')
	})
})

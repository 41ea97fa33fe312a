import { useEffect, useState } from 'react'

// From the product spec (design/product.md §1): the route-change bar's start position, stop delay and height.
export const PROGRESS_START = 0.3
export const PROGRESS_STOP_DELAY_MS = 200
export const PROGRESS_HEIGHT_PX = 3

/** The bar creeps toward this and never past it until the work is done, so it never looks finished early. */
const trickleCeiling = 0.9
const trickleIntervalMs = 300
const trickleShare = 0.08

type Phase = 'hidden' | 'running' | 'finishing'

type ProgressBarProps = {
	/** True while the work runs (a route change: `navigation.state !== 'idle'`). */
	isActive: boolean
	label?: string
}

/**
 * A thin bar across the top of the window. When `isActive` turns true it appears at 30 % and trickles
 * toward 90 %; when it turns false it fills to 100 % and disappears 200 ms later.
 */
export function ProgressBar({ isActive, label = 'Loading page' }: ProgressBarProps) {
	const [phase, setPhase] = useState<Phase>(isActive ? 'running' : 'hidden')
	const [value, setValue] = useState(isActive ? PROGRESS_START : 0)
	const [wasActive, setWasActive] = useState(isActive)

	// Reacting to the prop while rendering (not in an effect) means the first frame already shows the bar.
	if (isActive !== wasActive) {
		setWasActive(isActive)
		if (isActive) {
			setPhase('running')
			setValue(PROGRESS_START)
		} else if (phase !== 'hidden') {
			setPhase('finishing')
			setValue(1)
		}
	}

	useEffect(() => {
		if (phase === 'running') {
			const timer = setInterval(() => {
				setValue((current) => current + (trickleCeiling - current) * trickleShare)
			}, trickleIntervalMs)
			return () => clearInterval(timer)
		}
		if (phase === 'finishing') {
			const timer = setTimeout(() => {
				setPhase('hidden')
				setValue(0)
			}, PROGRESS_STOP_DELAY_MS)
			return () => clearTimeout(timer)
		}
		return undefined
	}, [phase])

	if (phase === 'hidden') {
		return null
	}
	return (
		<div
			role="progressbar"
			aria-label={label}
			aria-busy={phase === 'running'}
			aria-valuemin={0}
			aria-valuemax={100}
			aria-valuenow={Math.round(value * 100)}
			className="pointer-events-none fixed inset-x-0 top-0 z-[100]"
			style={{ height: PROGRESS_HEIGHT_PX }}
		>
			<div
				className="h-full origin-left bg-primary shadow-[0_0_10px] shadow-primary/50 transition-transform duration-200 ease-out dark:bg-ring dark:shadow-ring/50"
				style={{ transform: `scaleX(${value})` }}
			/>
		</div>
	)
}

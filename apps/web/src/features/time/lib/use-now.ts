import { useEffect, useState } from 'react'

/** The current time, moving each second while `isTicking` (a running timer's clock); still otherwise. */
export function useNow(isTicking: boolean): number {
	const [now, setNow] = useState(() => Date.now())
	useEffect(() => {
		if (!isTicking) {
			return
		}
		setNow(Date.now())
		const timer = setInterval(() => setNow(Date.now()), 1000)
		return () => clearInterval(timer)
	}, [isTicking])
	return now
}

import { anyTimerSchema } from '@blocksmith/contracts/time.ts'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Square } from 'lucide-react'
import { useMemo } from 'react'
import { Link } from 'react-router'
import { paths } from '#src/app/paths.ts'
import { Button } from '#src/components/ui/button.tsx'
import { cn } from '#src/components/ui/cn.ts'
import { stopEntry } from '../api/time.ts'
import { timeKeys } from '../api/time-keys.ts'
import { formatElapsed, secondsOf } from '../lib/entries.ts'
import { useTimerChanged } from '../lib/timer-channel.ts'
import { useNow } from '../lib/use-now.ts'

// The running timer's pill (loaded by header-timer.tsx once one runs): its description and
// elapsed time, a link to /time, and Stop through the entry's own tool.

type RunningTimerProps = {
	/** `sidebar`: a card in the desktop sidebar; `bar`: a pill in the mobile header. */
	variant: 'sidebar' | 'bar'
	/** GET /dashboard/time/timer's answer, as it came. */
	data: unknown
}

export function RunningTimer({ variant, data }: RunningTimerProps) {
	const queryClient = useQueryClient()
	const timer = useMemo(() => anyTimerSchema.safeParse(data).data ?? null, [data])
	const entry = timer?.entry ?? null
	const tool = timer?.tool ?? null
	const now = useNow(Boolean(entry))
	const changed = useTimerChanged()
	const stop = useMutation({
		mutationFn: stopEntry,
		onSuccess: async () => {
			queryClient.setQueryData(timeKeys.anyTimer, { entry: null, tool: null, databaseName: null, projectName: null })
			await changed()
		},
	})
	if (!entry || !tool) {
		return null
	}
	const description = entry.description || entry.task || 'No description'
	const elapsed = formatElapsed(secondsOf(entry, now))
	const details = [timer?.projectName, timer?.databaseName].filter(Boolean).join(' · ')
	const stopButton = (
		<Button
			variant="ghost"
			size="icon-sm"
			aria-label="Stop timer"
			title="Stop timer"
			isLoading={stop.isPending}
			onClick={() => stop.mutate({ tool, id: entry.id })}
			className={cn('shrink-0 text-error hover:text-error', variant === 'bar' && 'size-7')}
		>
			<Square aria-hidden className="fill-current" />
		</Button>
	)
	if (variant === 'bar') {
		return (
			<section
				aria-label="Running timer"
				className="flex h-8 items-center gap-1 rounded-full border bg-card pr-0.5 pl-2.5"
			>
				<Link to={paths.time} className="flex min-w-0 items-center gap-1.5 text-sm" title={description}>
					<RunningDot />
					<span className="sr-only">{description}, </span>
					<span className="font-medium font-mono tabular-nums">{elapsed}</span>
				</Link>
				{stopButton}
			</section>
		)
	}
	return (
		<section aria-label="Running timer" className="grid gap-0.5 rounded-lg border bg-card py-1.5 pr-1 pl-2.5 shadow-xs">
			<div className="flex min-w-0 items-center gap-2">
				<RunningDot />
				<Link
					to={paths.time}
					title={description}
					className={cn(
						'min-w-0 flex-1 truncate text-sm hover:underline',
						!entry.description && 'text-muted-foreground',
					)}
				>
					{description}
				</Link>
				{stopButton}
			</div>
			<div className="flex min-w-0 items-center gap-2 pr-2 pl-4 text-xs">
				<span className="min-w-0 flex-1 truncate text-muted-foreground">{details}</span>
				<span className="font-medium font-mono tabular-nums">{elapsed}</span>
			</div>
		</section>
	)
}

function RunningDot() {
	return (
		<span aria-hidden className="relative flex size-2 shrink-0">
			<span className="absolute inline-flex size-full animate-ping rounded-full bg-error/60 motion-reduce:animate-none" />
			<span className="relative inline-flex size-2 rounded-full bg-error" />
		</span>
	)
}

// How far along the visitor is: a bar and its words ("Page 2 of 3", "Question 3 of 12"), counted
// by the path the answers take (form-flow.ts), so a page a jump skips is not counted.

export function FormProgress({ current, total, unit }: { current: number; total: number; unit: 'Page' | 'Question' }) {
	const text = `${unit} ${current} of ${total}`
	const percent = total > 0 ? Math.round((Math.min(current, total) / total) * 100) : 0
	return (
		<div className="grid gap-1.5">
			<div
				role="progressbar"
				aria-label="Progress"
				aria-valuemin={1}
				aria-valuemax={total}
				aria-valuenow={current}
				aria-valuetext={text}
				className="h-1.5 overflow-hidden rounded-full bg-muted"
			>
				<div className="h-full rounded-full bg-primary transition-[width]" style={{ width: `${percent}%` }} />
			</div>
			<p aria-hidden="true" className="text-[13px] text-muted-foreground tabular-nums">
				{text}
			</p>
		</div>
	)
}

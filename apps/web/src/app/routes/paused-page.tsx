import { PauseCircle } from 'lucide-react'
import { Link } from 'react-router'
import { Brand } from '#src/app/brand.tsx'
import { paths } from '#src/app/paths.ts'
import { Button } from '#src/components/ui/button.tsx'

/** Where a paused subscription leads: what it means, and the way back. */
export function PausedPage() {
	return (
		<div className="flex min-h-dvh flex-col items-center justify-center bg-muted/40 px-4 py-10">
			<Link to={paths.home} className="mb-8">
				<Brand />
			</Link>
			<main className="grid w-full max-w-md gap-5 rounded-xl border bg-card p-8 text-center shadow-sm">
				<PauseCircle aria-hidden className="mx-auto size-10 text-muted-foreground" />
				<h1 className="font-semibold text-xl tracking-tight">Your subscription is paused</h1>
				<p className="text-muted-foreground text-sm">
					While it is paused, your forms stop accepting answers and your portals and chart embeds are hidden. Your data
					is kept safe, and everything comes back the moment you resume.
				</p>
				<p className="text-muted-foreground text-sm">An owner of your organization can resume it in the settings.</p>
				<Button asChild>
					<Link to={paths.settings}>Go to settings</Link>
				</Button>
			</main>
		</div>
	)
}

import { Link } from 'react-router'
import { Brand } from '#src/app/brand.tsx'
import { paths } from '#src/app/paths.ts'
import { Button } from '#src/components/ui/button.tsx'

export function NotFoundPage() {
	return (
		<div className="flex min-h-dvh flex-col items-center justify-center gap-6 px-4 text-center">
			<Brand />
			<main className="grid gap-3">
				<p className="font-semibold text-muted-foreground text-sm">404</p>
				<h1 className="font-semibold text-2xl tracking-tight">Page not found</h1>
				<p className="text-muted-foreground">The page you asked for doesn't exist, or it moved.</p>
				<div>
					<Button asChild variant="outline">
						<Link to={paths.home}>Back to the start</Link>
					</Button>
				</div>
			</main>
		</div>
	)
}

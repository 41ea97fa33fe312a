import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { Brand } from '#src/app/brand.tsx'
import { paths } from '#src/app/paths.ts'

/** The frame of the sign-in, sign-up and account pages: the mark, a card, a footer line. */
export function AuthLayout({
	title,
	description,
	children,
	footer,
}: {
	title: ReactNode
	description?: ReactNode
	children: ReactNode
	footer?: ReactNode
}) {
	return (
		<div className="flex min-h-dvh flex-col items-center bg-muted/40 px-4 py-10 sm:justify-center sm:py-16">
			<Link to={paths.home} className="mb-8 rounded-md focus-visible:outline-2 focus-visible:outline-ring">
				<Brand />
			</Link>
			<main className="w-full max-w-sm">
				<div className="rounded-xl border bg-card p-6 shadow-sm sm:p-8">
					<div className="mb-6 grid gap-1.5">
						<h1 className="font-semibold text-xl tracking-tight">{title}</h1>
						{description ? <p className="text-muted-foreground text-sm">{description}</p> : null}
					</div>
					{children}
				</div>
				{footer ? <div className="mt-6 text-center text-muted-foreground text-sm">{footer}</div> : null}
			</main>
		</div>
	)
}

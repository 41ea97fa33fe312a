const modules = [
	{
		name: 'Forms',
		summary: 'Forms that write straight into your databases, with logic, file uploads and spam defence.',
	},
	{ name: 'Charts', summary: 'Live charts of your databases that you can embed in any Notion page.' },
	{ name: 'Invoices', summary: 'Invoices built from your rows, sent as PDFs and followed until they are paid.' },
	{ name: 'Portals', summary: 'Client portals where each client signs in and sees only their own rows.' },
	{ name: 'Time Tracking', summary: 'Timers and timesheets on your databases, with weekly and monthly reports.' },
] as const

/** What a signed-out visitor sees at `/` until the app shell and its routes exist. */
export function LandingPage() {
	return (
		<main className="landing">
			<header className="landing-header">
				<img className="landing-mark" src="/favicon.svg" alt="" width="40" height="40" />
				<h1>Blocksmith</h1>
				<p className="landing-tagline">
					Charts, Invoices, Forms, Portals and Time Tracking on your Notion databases — or on databases kept right here.
				</p>
				<nav className="landing-actions" aria-label="Account">
					<a className="button button-primary" href="/register">
						Create an account
					</a>
					<a className="button" href="/login">
						Sign in
					</a>
				</nav>
			</header>
			<ul className="landing-modules" aria-label="Modules">
				{modules.map((module) => (
					<li key={module.name}>
						<h2>{module.name}</h2>
						<p>{module.summary}</p>
					</li>
				))}
			</ul>
		</main>
	)
}
